import type { Command } from "commander";
import { CliError, exitCodes } from "../cli-error.js";

interface ServeOptions {
  port: string;
  host: string;
  token?: string;
  cwd?: string;
}

export function registerServeCommand(program: Command): void {
  program
    .command("serve")
    .description("the decisions of `toolgate hook` over HTTP: plugins load once and reload when their files change")
    .option("--port <n>", "the port (0 picks a free one)", "8787")
    .option("--host <addr>", "the address to listen on; anything but loopback needs --token", "127.0.0.1")
    .option("--token <token>", "require `Authorization: Bearer <token>` on every request (or TOOLGATE_SERVE_TOKEN)")
    .option("--cwd <dir>", "the project folder (plugins/, toolgate.config.*)")
    .addHelpText(
      "after",
      "\nEndpoints: POST /v1/hooks/<agent> (claude-code, gemini-cli, codex, copilot-cli), POST /v1/check, GET /v1/health.\nThe first line on stdout is `listening on <url>`.\nRefused: a Host other than 127.0.0.1, localhost, [::1] or --host with the port (421), a foreign Origin or a cross-site Sec-Fetch-Site (403), a POST body not sent as application/json (415).\nA body over 8 MiB gets a 200 deny; a plugin's error that escapes its hooks fails that plugin, never the server.",
    )
    .action(async (options: ServeOptions) => {
      await serve(options);
    });
}

async function serve(options: ServeOptions): Promise<void> {
  const port = Number(options.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new CliError(`--port ${options.port} is not a port number`, exitCodes.usage);
  const token = options.token ?? process.env.TOOLGATE_SERVE_TOKEN;
  if (token !== undefined && token.trim() === "")
    throw new CliError(
      `${options.token === undefined ? "TOOLGATE_SERVE_TOKEN" : "--token"} is empty: give a token, or unset it to serve loopback clients without one`,
      exitCodes.usage,
    );
  if (!isLoopback(options.host) && !token)
    throw new CliError(
      `--host ${options.host} is reachable from other machines: set --token (or TOOLGATE_SERVE_TOKEN) so that only clients holding it are answered`,
      exitCodes.usage,
    );
  const [
    { resolveCwd, stderrLogger, createRecordingHost },
    { createLiveHost },
    { createHookServer },
    { watchProject },
    { printLine, printNote },
    { catchStrayErrors, describeStray, strayErrorOf },
  ] = await Promise.all([
    import("../open-host.js"),
    import("../../server/live-host.js"),
    import("../../server/hook-server.js"),
    import("../../server/watch-project.js"),
    import("../output.js"),
    import("../../server/stray-errors.js"),
  ]);
  // A plugin's throw in a timer or unhandled rejection would end the process: its plugin fails instead.
  // One that comes while the first host loads is that host's, once it is there.
  const early: unknown[] = [];
  let failPlugin = (error: unknown) => void early.push(error);
  catchStrayErrors((error) => failPlugin(error));
  const cwd = resolveCwd(options.cwd);
  let stopWatching = () => {};
  const watch = () => {
    stopWatching();
    stopWatching = watchProject({ cwd, pluginFiles: live.current.host?.plugins.map((plugin) => plugin.path) ?? [], onChange: () => void live.reload() });
  };
  const live = await createLiveHost(
    () => createRecordingHost({ cwd, logger: stderrLogger }, "serve"),
    (generation) => {
      printNote(
        generation.host
          ? `[toolgate] reloaded: ${generation.host.plugins.length} plugin(s)`
          : `[toolgate] reload failed, denying every call: ${generation.failure}`,
      );
      watch();
    },
  );
  failPlugin = (error) => {
    const generation = live.current;
    const stray = strayErrorOf(error, generation.host?.plugins ?? []);
    generation.stray ??= stray;
    printNote(`[toolgate] ${describeStray(stray)}${generation.host?.onPluginError === "block" ? "; denying every call until the project reloads" : ""}`);
  };
  for (const error of early.splice(0)) failPlugin(error);
  if (live.current.failure !== undefined) printNote(`[toolgate] could not load the project, denying every call until it is fixed: ${live.current.failure}`);
  watch();
  const server = createHookServer({ live, token, host: options.host });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, options.host, resolve);
    });
  } catch (error) {
    // The watchers and the host would keep the process up with nothing to serve.
    stopWatching();
    await live.close();
    throw new CliError(listenFailure(error, options.host, port), exitCodes.failure);
  }
  const address = server.address();
  const shown =
    typeof address === "object" && address !== null
      ? `http://${address.family === "IPv6" ? `[${address.address}]` : address.address}:${address.port}`
      : String(address);
  printLine(`listening on ${shown}`);
  const stop = () => {
    stopWatching();
    server.close();
    server.closeAllConnections();
    void live.close().then(() => process.exit(0));
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
}

function listenFailure(error: unknown, host: string, port: number): string {
  const code = (error as { code?: unknown } | undefined)?.code;
  if (code === "EADDRINUSE") return `port ${port} on ${host} is already in use: stop what holds it, or pick another port with --port (0 picks a free one)`;
  if (code === "EACCES") return `port ${port} on ${host} needs privileges this process does not have: pick a port above 1023 with --port`;
  if (code === "EADDRNOTAVAIL" || code === "ENOTFOUND") return `cannot listen on ${host}: it is not an address of this machine`;
  return `cannot listen on ${host}:${port}: ${error instanceof Error ? error.message : String(error)}`;
}

function isLoopback(host: string): boolean {
  return host === "localhost" || host === "::1" || /^127(\.\d{1,3}){3}$/.test(host);
}
