import type { PluginOptions, PluginSource as PluginOrigin } from "@toolgate/plugin-sdk";
import type { ToolgateError } from "../errors.js";

/** A plugin found but not yet loaded: where it comes from and how to load it. */
export interface PluginSource {
  origin: PluginOrigin;
  /** How the user named it (package name, path, or `inline #N`); used until the plugin's own name is known. */
  label: string;
  /** The module file to load, for everything but inline plugins. */
  path?: string;
  /** An inline plugin object or factory. */
  value?: unknown;
  options: PluginOptions;
  /** `"worker"`: load and run the plugin in its own worker thread (isolation/). */
  isolation?: "worker";
  /** `shadow: true` in its host settings: asked and recorded, never part of the verdict. */
  shadow?: true;
  /** Set when the source could not be resolved; the plugin is reported as failed. */
  error?: ToolgateError;
}
