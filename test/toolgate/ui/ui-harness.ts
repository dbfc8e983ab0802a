import { existsSync } from "node:fs";
import { request } from "node:http";
import { chromium, type Browser } from "playwright-core";
import { startCli, type RunningCli } from "../decisions/records.js";

const chromiumPath = "/usr/bin/chromium";

/** The browser tests skip, saying why, on a machine without Debian's chromium (.ci/run installs it). */
export const hasChromium = existsSync(chromiumPath);
export const missingChromiumReason =
  "SKIPPED: no /usr/bin/chromium. Install it (Debian/Ubuntu: `apt-get install -y chromium`) to run the toolgate ui browser tests.";

/** Debian's chromium, as .ci/run installs it; the flags keep it off the network this machine does not have. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath,
    timeout: 100_000,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
  });
}

export interface RunningUi {
  url: string;
  cli: RunningCli;
}

/** `toolgate ui --port 0` in a real child process, once it prints its URL. */
export async function startUi(project: string, waitMs?: number): Promise<RunningUi> {
  const cli = startCli(["ui", "--cwd", project, "--port", "0"]);
  const [, url] = await cli.waitFor(/^listening on (http:\/\/127\.0\.0\.1:\d+\/)\n/, waitMs);
  return { url: url!, cli };
}

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** A request with exactly these headers (fetch would not let a test forge Host). */
export function rawRequest(url: string, options: { method?: string; headers?: Record<string, string>; body?: string } = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const outgoing = request(url, { method: options.method ?? "GET", headers: options.headers }, (response) => {
      let body = "";
      response.on("data", (chunk: Buffer) => (body += chunk.toString()));
      response.on("end", () => resolve({ status: response.statusCode ?? 0, headers: response.headers, body }));
    });
    outgoing.on("error", reject);
    outgoing.end(options.body);
  });
}
