import type { PluginLogger } from "@toolgate/plugin-sdk";

/** Where the host writes its warnings; `console` by default. */
export type HostLogger = PluginLogger;

const silentLogger: HostLogger = { debug() {}, info() {}, warn() {}, error() {} };

export function createConsoleLogger(prefix = "[toolgate]"): HostLogger {
  return {
    debug: (message, ...details) => console.debug(prefix, message, ...details),
    info: (message, ...details) => console.info(prefix, message, ...details),
    warn: (message, ...details) => console.warn(prefix, message, ...details),
    error: (message, ...details) => console.error(prefix, message, ...details),
  };
}

/** `false` silences the host; a logger object is used as is. */
export function resolveHostLogger(option: HostLogger | false | undefined): HostLogger {
  if (option === false) return silentLogger;
  return option ?? createConsoleLogger();
}

/**
 * A logger whose lines name the plugin. `plugin` may be a function: a factory logs before its plugin's
 * name is known, and its lines should carry the name once it is.
 */
export function createPluginLogger(host: HostLogger, plugin: string | (() => string)): PluginLogger {
  const prefix = typeof plugin === "string" ? () => `[${plugin}]` : () => `[${plugin()}]`;
  return {
    debug: (message, ...details) => host.debug(`${prefix()} ${message}`, ...details),
    info: (message, ...details) => host.info(`${prefix()} ${message}`, ...details),
    warn: (message, ...details) => host.warn(`${prefix()} ${message}`, ...details),
    error: (message, ...details) => host.error(`${prefix()} ${message}`, ...details),
  };
}
