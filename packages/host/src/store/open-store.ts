import { resolve } from "node:path";
import type { HostLogger } from "../logger.js";
import type { StoreBackend } from "./backend.js";
import { createFileStore } from "./file-store.js";
import { createMemoryStore } from "./memory-store.js";
import { openRedisStore } from "./redis-store.js";

/** The `store` setting, resolved: which backend, and where. */
export type StoreSetting = { kind: "memory" } | { kind: "file"; dir: string } | { kind: "redis"; url: string };

/** Where `store: "file"` keeps its files, relative to the project root. */
const defaultFileStoreDir = ".toolgate/store";

/** `"memory"`, `"file"`, `"file:<dir>"` or a `redis://` / `rediss://` URL; `undefined` if it is none of them. */
export function parseStoreSetting(value: string, baseDir: string): StoreSetting | undefined {
  if (value === "memory") return { kind: "memory" };
  if (value === "file") return { kind: "file", dir: resolve(baseDir, defaultFileStoreDir) };
  if (value.startsWith("file:") && value.length > "file:".length) return { kind: "file", dir: resolve(baseDir, value.slice("file:".length)) };
  if (/^rediss?:\/\/./.test(value) && URL.canParse(value)) return { kind: "redis", url: value };
  return undefined;
}

export function isStoreSetting(value: unknown): boolean {
  return typeof value === "string" && parseStoreSetting(value, "/") !== undefined;
}

export async function openStore(setting: StoreSetting, logger: HostLogger): Promise<StoreBackend> {
  if (setting.kind === "file") return createFileStore(setting.dir);
  if (setting.kind === "redis") return openRedisStore(setting.url, logger);
  return createMemoryStore();
}
