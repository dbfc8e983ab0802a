import { spawn } from "node:child_process";

/**
 * Opens `url` in the user's browser: `$BROWSER` when set (the convention xdg-open, Python's webbrowser and
 * others follow), else the system's opener. Never waits for it; says why when it cannot start one.
 */
export function openBrowser(url: string, report: (message: string) => void): void {
  const [command, args] = openerFor(url);
  try {
    const child = spawn(command, args, { detached: true, stdio: "ignore" });
    child.once("error", (error) => report(`[toolgate] cannot open a browser (${command}: ${error.message}); open ${url} yourself`));
    child.unref();
  } catch (error) {
    report(`[toolgate] cannot open a browser (${command}: ${String(error)}); open ${url} yourself`);
  }
}

function openerFor(url: string): [string, string[]] {
  const browser = process.env.BROWSER;
  if (browser !== undefined && browser.trim() !== "") return [browser, [url]];
  if (process.platform === "darwin") return ["open", [url]];
  if (process.platform === "win32") return ["cmd", ["/c", "start", "", url]];
  return ["xdg-open", [url]];
}
