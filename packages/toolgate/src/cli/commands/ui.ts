import type { Command } from "commander";
import { CliError, exitCodes } from "../cli-error.js";

interface UiOptions {
  port: string;
  cwd?: string;
  file?: string;
  open?: boolean;
}

export function registerUiCommand(program: Command): void {
  program
    .command("ui")
    .description("a local web page (127.0.0.1) of the project's decisions: live as agents work, with filters, each call's detail and counts over time")
    .option("--port <n>", "the port (0 picks a free one)", "8788")
    .option("--cwd <dir>", "the project folder")
    .option("--file <path>", "the log to read (default: .toolgate/decisions.jsonl in the project)")
    .option("--open", "open the page in a browser ($BROWSER, or the system's)")
    .addHelpText(
      "after",
      "\nThe first line on stdout is `listening on <url>`: open it in a browser. It listens on 127.0.0.1 only and, like serve,\nrefuses a Host other than 127.0.0.1, localhost or [::1] with the port, a foreign Origin and a cross-site Sec-Fetch-Site.",
    )
    .action(async (options: UiOptions) => {
      await startUi(options);
    });
}

async function startUi(options: UiOptions): Promise<void> {
  const port = Number(options.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new CliError(`--port ${options.port} is not a port number`, exitCodes.usage);
  const [{ resolveCwd }, { findLogPath }, { loadAssets }, { createRecordHub }, { createUiServer }, { printLine, printNote }] = await Promise.all([
    import("../open-host.js"),
    import("../../decisions/log-files.js"),
    import("../../ui/assets.js"),
    import("../../ui/record-hub.js"),
    import("../../ui/ui-server.js"),
    import("../output.js"),
  ]);
  const cwd = resolveCwd(options.cwd);
  const logPath = await findLogPath({ cwd, file: options.file });
  const assets = loadAssets();
  const hub = createRecordHub(logPath, (error) => printNote(`[toolgate] cannot read ${logPath}: ${String(error)}`));
  const server = createUiServer({ hub, assets, cwd, logPath });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", resolve);
    });
  } catch (error) {
    hub.close();
    const code = (error as { code?: unknown }).code;
    throw new CliError(
      code === "EADDRINUSE"
        ? `port ${port} on 127.0.0.1 is already in use: pick another with --port (0 picks a free one)`
        : `cannot listen on 127.0.0.1:${port}: ${String(error)}`,
      exitCodes.failure,
    );
  }
  const address = server.address();
  const url = `http://127.0.0.1:${typeof address === "object" && address !== null ? address.port : port}/`;
  printLine(`listening on ${url}`);
  printNote(`[toolgate] showing ${logPath}`);
  if (options.open) (await import("../../ui/open-browser.js")).openBrowser(url, printNote);
  const stop = () => {
    hub.close();
    server.close();
    server.closeAllConnections();
    process.exit(0);
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}
