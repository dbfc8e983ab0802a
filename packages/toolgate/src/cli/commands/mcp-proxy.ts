import type { Command } from "commander";
import { isToolgateError } from "@toolgate/host";
import { CliError, exitCodes } from "../cli-error.js";
import { resolveCwd, stderrLogger } from "../open-host.js";
import { hostVersion } from "../versions.js";

interface McpProxyCommandOptions {
  cwd?: string;
  url?: string;
  header: string[];
}

const helpText = `
Runs an MCP server on stdio that forwards everything to the real server and puts every tools/call
through the project's plugins first (as a call of kind "mcp"):

  toolgate mcp-proxy [--cwd DIR] -- <server command...>   spawn the real server, talk to it over stdio
  toolgate mcp-proxy [--cwd DIR] --url <endpoint> [--header "Name: value"...]
                                                          connect to it over Streamable HTTP

A blocked call returns a tool result with isError: true and the plugin's reason; the server never sees
it. Allowed calls, resources, prompts, notifications, progress and cancellation pass through unchanged.
stdout carries only MCP messages: logs, warnings and plugin output go to stderr.
If a plugin or the config fails to load, the proxy still starts and denies every tool call with the cause.

Exit codes: 0 the client disconnected, 1 the upstream could not start or went away,
2 bad usage (no server or both --url and a command, --cwd not a folder).`;

export function registerMcpProxyCommand(program: Command): void {
  program
    .command("mcp-proxy")
    .description("an MCP server in front of another one: every tools/call passes the gate")
    .option("--cwd <dir>", "the project folder (plugins/, toolgate.config.*, node_modules)")
    .option("--url <endpoint>", "the upstream's Streamable HTTP endpoint, instead of a command")
    .option("--header <name: value>", "an HTTP header for every request to --url (repeatable)", collect, [])
    .argument("[command...]", "the upstream server's command and arguments, after --")
    .addHelpText("after", helpText)
    .action(async (command: string[], options: McpProxyCommandOptions) => {
      const target = upstreamTarget(command, options.url, options.header);
      const cwd = resolveCwd(options.cwd);
      // Loaded here, not at the top: the MCP SDK is for this command only, the others do not pay for it.
      const { runMcpProxy } = await import("../../mcp-proxy/run-mcp-proxy.js");
      try {
        const code = await runMcpProxy({ cwd, target, logger: stderrLogger, version: hostVersion() });
        // The client or the upstream is gone; stdin or an HTTP agent may still hold the loop open.
        process.exit(code);
      } catch (error) {
        if (isToolgateError(error) && error.code === "MCP_UPSTREAM_FAILED") throw new CliError(error.message, exitCodes.failure);
        throw error;
      }
    });
}

function upstreamTarget(command: string[], url: string | undefined, headers: readonly string[]) {
  if (url !== undefined && command.length > 0) throw new CliError("mcp-proxy takes either --url or a server command, not both", exitCodes.usage);
  if (url === undefined && headers.length > 0) throw new CliError("--header goes with --url (a stdio server takes no HTTP headers)", exitCodes.usage);
  if (url !== undefined) return headers.length === 0 ? { url: parseUrl(url) } : { url: parseUrl(url), headers: parseHeaders(headers) };
  const [executable, ...args] = command;
  if (executable === undefined) throw new CliError("mcp-proxy needs the upstream server: -- <command...> or --url <endpoint>", exitCodes.usage);
  return { command: executable, args };
}

function parseUrl(url: string): URL {
  try {
    return new URL(url);
  } catch {
    throw new CliError(`--url ${url} is not a URL`, exitCodes.usage);
  }
}

function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/** `"Authorization: Bearer x"` pairs as a headers object; a pair without a colon is a usage error. */
function parseHeaders(pairs: readonly string[]): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const pair of pairs) {
    const colon = pair.indexOf(":");
    const name = pair.slice(0, colon).trim();
    if (colon < 1 || name === "") throw new CliError(`--header ${JSON.stringify(pair)} is not "Name: value"`, exitCodes.usage);
    headers[name] = pair.slice(colon + 1).trim();
  }
  return headers;
}
