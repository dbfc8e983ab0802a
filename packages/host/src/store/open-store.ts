import { resolve } from "node:path";
import type { HostLogger } from "../logger.js";
import type { StoreBackend } from "@toolgate/plugin-sdk/host";
import { createFileStore } from "./file-store.js";
import { createMemoryStore } from "./memory-store.js";
import { importOptional, storeRedisPackage } from "../optional-packages/import-optional.js";
import { unavailableStore } from "./unavailable-store.js";

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

/** `baseDir`: the project folder, where an optional store package is looked for too. */
export async function openStore(setting: StoreSetting, logger: HostLogger, baseDir: string): Promise<StoreBackend> {
  if (setting.kind === "file") return createFileStore(setting.dir);
  if (setting.kind === "redis") return openRedis(setting.url, logger, baseDir);
  return createMemoryStore();
}

/**
 * Redis through `@toolgate/store-redis`. When that package cannot be loaded the host still starts, as
 * it does when Redis is down: every store operation fails, so every policy that counts fails closed,
 * with the `npm install` line in its message; the cause is logged once here.
 */
async function openRedis(url: string, logger: HostLogger, baseDir: string): Promise<StoreBackend> {
  let module: typeof import("@toolgate/store-redis");
  try {
    module = await importOptional(storeRedisPackage, baseDir, () => import("@toolgate/store-redis"));
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    logger.error(`toolgate: ${reason}`);
    return unavailableStore(redisLabel(url), reason);
  }
  return module.openRedisStore(url, logger);
}

/** The URL without its password, as reports may show it. */
function redisLabel(url: string): string {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = "***";
  return parsed.toString().replace(/\/$/, "");
}
