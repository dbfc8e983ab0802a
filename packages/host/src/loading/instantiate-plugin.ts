import type { PluginApi, PluginOptions } from "@toolgate/plugin-sdk";
import { describeThrown, ToolgateError } from "../errors.js";
import { withTimeout } from "../gate/timeout.js";

export type Instantiation = { ok: true; value: unknown } | { ok: false; error: ToolgateError };

/** A plugin object is used as is; a factory is called with its options, within the hook timeout. */
export async function instantiatePlugin(
  exported: unknown,
  options: PluginOptions,
  api: PluginApi,
  timeoutMs: number,
  path: string | undefined,
): Promise<Instantiation> {
  if (typeof exported !== "function") return { ok: true, value: exported };
  const factory = exported as (options: PluginOptions, api: PluginApi) => unknown;
  try {
    const value = await withTimeout(Promise.resolve().then(() => factory(options, api)), timeoutMs);
    return { ok: true, value };
  } catch (error) {
    const reason = `the plugin factory failed: ${describeThrown(error)}`;
    return { ok: false, error: new ToolgateError("PLUGIN_FACTORY_FAILED", reason, { path, cause: error }) };
  }
}
