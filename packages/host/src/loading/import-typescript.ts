import type { Jiti } from "jiti";
import { homedir, tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

let jiti: Promise<Jiti> | undefined;

/**
 * Imports a TypeScript module through jiti. jiti is imported on first use only: it is the largest part
 * of the host's start-up, and a project whose plugins are all JavaScript never needs it.
 */
export async function importTypeScript(path: string): Promise<Record<string, unknown>> {
  jiti ??= createTranspiler();
  return (await (await jiti).import(pathToFileURL(path).href)) as Record<string, unknown>;
}

// No module cache: a host created after a plugin or config file changed must see the new code. The
// transpiled output is cached on disk, keyed by jiti on the file's path and a hash of its source, so a
// second process skips the transpiler (and never loads Babel) until the file changes.
async function createTranspiler(): Promise<Jiti> {
  const { createJiti } = await import("jiti");
  return createJiti(import.meta.url, { moduleCache: false, interopDefault: false, fsCache: transpileCacheDir() });
}

/**
 * The user's own cache folder, not a shared one: jiti runs whatever code it finds in its cache, so a
 * folder other users can write to (jiti's default is `$TMPDIR/jiti`) would let them plant a plugin.
 */
export function transpileCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.TOOLGATE_CACHE_DIR) return join(env.TOOLGATE_CACHE_DIR, "jiti");
  if (env.XDG_CACHE_HOME) return join(env.XDG_CACHE_HOME, "toolgate", "jiti");
  const home = safeHomedir();
  if (home) return join(home, ".cache", "toolgate", "jiti");
  return join(tmpdir(), `toolgate-${userInfo().uid}`, "jiti");
}

function safeHomedir(): string | undefined {
  try {
    return homedir() || undefined;
  } catch {
    return undefined;
  }
}
