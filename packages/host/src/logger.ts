import type { PluginLogger } from "@toolgate/plugin-sdk";
import { inspect } from "node:util";
import { escapeControl } from "./escape-control.js";

/** Where the host writes its warnings; stderr by default. */
export type HostLogger = PluginLogger;

type Level = keyof HostLogger;
const levels: readonly Level[] = ["debug", "info", "warn", "error"];

const silentLogger: HostLogger = { debug() {}, info() {}, warn() {}, error() {} };

/**
 * The default logger: every level, `info` and `debug` included, goes to stderr, one line per entry with
 * control characters escaped. stdout belongs to the program embedding the host (a hook command's or an
 * MCP server's protocol), so a plugin's `ctx.log.info` must never reach it.
 */
export function createConsoleLogger(prefix = "[toolgate]"): HostLogger {
  const write =
    (level: Level) =>
    (message: string, ...details: unknown[]) => {
      const label = level === "warn" || level === "error" ? `${level}: ` : "";
      const parts = [String(message), ...details.map(formatDetail)];
      process.stderr.write(`${prefix} ${label}${escapeControl(parts.join(" "))}\n`);
    };
  return { debug: write("debug"), info: write("info"), warn: write("warn"), error: write("error") };
}

function formatDetail(detail: unknown): string {
  if (typeof detail === "string") return detail;
  try {
    return inspect(detail, { depth: 4, breakLength: Infinity });
  } catch {
    return "[a value that could not be shown]";
  }
}

/**
 * `false` silences the host; a logger object gets every message with control characters escaped (the
 * message often carries a plugin's name or text); nothing is given: the stderr logger.
 */
export function resolveHostLogger(option: HostLogger | false | undefined): HostLogger {
  if (option === false) return silentLogger;
  if (option === undefined) return createConsoleLogger();
  const escaped = {} as HostLogger;
  for (const level of levels) escaped[level] = (message, ...details) => option[level](escapeMessage(message), ...details);
  return escaped;
}

function escapeMessage(message: unknown): string {
  return escapeControl(typeof message === "string" ? message : String(message));
}

/**
 * A logger whose lines name the plugin. `plugin` may be a function: a factory logs before its plugin's
 * name is known, and its lines should carry the name once it is. The plugin's name and message are
 * escaped here, so they stay one harmless line whatever logger the host was given.
 */
export function createPluginLogger(host: HostLogger, plugin: string | (() => string)): PluginLogger {
  const name = typeof plugin === "string" ? () => plugin : plugin;
  const line = (message: unknown) => escapeControl(`[${name()}] ${String(message)}`);
  return {
    debug: (message, ...details) => host.debug(line(message), ...details),
    info: (message, ...details) => host.info(line(message), ...details),
    warn: (message, ...details) => host.warn(line(message), ...details),
    error: (message, ...details) => host.error(line(message), ...details),
  };
}
