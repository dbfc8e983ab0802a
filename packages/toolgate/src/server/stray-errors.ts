import { basename, dirname, sep } from "node:path";
import { pathToFileURL } from "node:url";
import type { PluginRecord } from "@toolgate/plugin-sdk";
import { describeThrown } from "@toolgate/host/internal";

/** An error that escaped every hook's own promise (a throw in a timer, a rejection nobody handled). */
export interface StrayError {
  /** The plugin whose file is the innermost frame of the error's stack; undefined when no frame names one. */
  plugin: string | undefined;
  message: string;
}

/**
 * Keeps the process alive through errors nothing caught: Node would end it (and `serve` would stop
 * answering, which agents read as "no decision") on the first `setTimeout(() => { throw … })` or
 * unhandled rejection in a plugin. Each one is handed to `onStray` instead. Returns the uninstaller.
 */
export function catchStrayErrors(onStray: (error: unknown) => void): () => void {
  const handler = (error: unknown) => onStray(error);
  process.on("uncaughtException", handler);
  process.on("unhandledRejection", handler);
  return () => {
    process.off("uncaughtException", handler);
    process.off("unhandledRejection", handler);
  };
}

/**
 * Which plugin `error` came from: the first stack frame (the innermost) inside a plugin's own code,
 * that is its file, the folder of an `index.*` entry (its helper modules included), or its npm package.
 * A rejection with no stack (`Promise.reject("x")`) names no plugin.
 */
export function strayErrorOf(error: unknown, plugins: readonly PluginRecord[]): StrayError {
  const message = describeThrown(error);
  const stack = error instanceof Error && typeof error.stack === "string" ? error.stack : "";
  const owners = plugins.flatMap((record) =>
    record.path === undefined || record.status !== "loaded" ? [] : ownedPrefixes(record.path).map((prefix) => ({ prefix, name: record.name })),
  );
  for (const line of stack.split("\n").slice(1)) {
    const owner = owners.find(({ prefix }) => line.includes(prefix));
    if (owner) return { plugin: owner.name, message };
  }
  return { plugin: undefined, message };
}

function ownedPrefixes(path: string): string[] {
  const owned =
    /^(.*[\\/]node_modules[\\/](?:@[^\\/]+[\\/])?[^\\/]+[\\/])/.exec(path)?.[1] ?? (basename(path).startsWith("index.") ? dirname(path) + sep : path);
  return [owned, pathToFileURL(owned).href];
}

/** The one-line report of a stray error, as `/v1/health`, stderr and the deny all say it. */
export function describeStray(stray: StrayError): string {
  const who = stray.plugin === undefined ? "a plugin (no stack frame names which)" : `plugin "${stray.plugin}"`;
  return `${who} failed: an error escaped its hooks: ${stray.message}`;
}
