/** Every error code toolgate raises, in one place. */
export const errorCodes = {
  INVALID_OPTIONS: "host options do not validate",
  INVALID_CONFIG: "the config file does not validate",
  CONFIG_LOAD_FAILED: "the config file could not be loaded",
  INVALID_CALL: "a tool call is malformed",
  HOST_CLOSED: "the host is closed",
  PLUGIN_NOT_FOUND: "a plugin could not be found",
  PLUGIN_LOAD_FAILED: "a plugin module could not be loaded",
  PLUGIN_NO_EXPORT: "a plugin module exports no plugin",
  PLUGIN_FACTORY_FAILED: "a plugin factory threw",
  PLUGIN_INVALID: "a plugin does not validate",
  PLUGIN_DUPLICATE: "two plugins share a name",
  HOOK_FAILED: "a hook threw or rejected",
  HOOK_TIMEOUT: "a hook ran past its timeout",
  HOOK_ABORTED: "a hook was cut short by host.close()",
  STORE_UNAVAILABLE: "the store (api.store) failed or could not be reached",
  MCP_UPSTREAM_FAILED: "mcp-proxy could not start or reach the upstream MCP server",
  POLICY_HOOK_INVALID:
    "a configured hook cannot run (a command's program is missing or not executable, a Cedar policy does not parse or validate, a CEL rule does not compile)",
} as const;

export type ErrorCode = keyof typeof errorCodes;

// A jiti-loaded plugin may carry its own copy of this module, so identity goes through a global symbol.
const toolgateErrorMarker = Symbol.for("toolgate.error");

interface ToolgateErrorDetails {
  plugin?: string | undefined;
  hook?: string | undefined;
  path?: string | undefined;
  cause?: unknown;
}

/** An error raised by toolgate, naming the plugin, hook and file where known. */
export class ToolgateError extends Error {
  readonly code: ErrorCode;
  readonly plugin: string | undefined;
  readonly hook: string | undefined;
  readonly path: string | undefined;

  constructor(code: ErrorCode, message: string, details: ToolgateErrorDetails = {}) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = "ToolgateError";
    this.code = code;
    this.plugin = details.plugin;
    this.hook = details.hook;
    this.path = details.path;
    Object.defineProperty(this, toolgateErrorMarker, { value: true });
  }
}

export function isToolgateError(value: unknown): value is ToolgateError {
  return typeof value === "object" && value !== null && toolgateErrorMarker in value;
}

/**
 * The one-line text of anything thrown. Never throws itself: what a plugin throws may be a Proxy, or an
 * Error whose `message` getter throws.
 */
export function describeThrown(thrown: unknown): string {
  try {
    if (typeof thrown === "string") return firstLine(thrown);
    if (thrown instanceof Error) return firstLine(String(thrown.message)) || String(thrown.name);
    return firstLine(JSON.stringify(thrown) ?? String(thrown));
  } catch {
    try {
      return firstLine(String(thrown));
    } catch {
      return "a value that cannot be read";
    }
  }
}

function firstLine(text: string): string {
  return text.split("\n", 1)[0]?.trim() ?? "";
}

/** `plugin "name" (path)` — how every message names a plugin. */
export function pluginLabel(plugin: string, path?: string): string {
  return path ? `plugin "${plugin}" (${path})` : `plugin "${plugin}"`;
}
