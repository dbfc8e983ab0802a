import { homedir, tmpdir, userInfo } from "node:os";
import { join } from "node:path";

/**
 * The user's own cache folder for toolgate (transpiled plugins, the CLI's V8 code cache), not a shared
 * one: what is cached there is run as it is, so a folder other users can write to (jiti's default is
 * `$TMPDIR/jiti`) would let them plant code.
 */
export function userCacheDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.TOOLGATE_CACHE_DIR) return env.TOOLGATE_CACHE_DIR;
  if (env.XDG_CACHE_HOME) return join(env.XDG_CACHE_HOME, "toolgate");
  const home = safeHomedir();
  if (home) return join(home, ".cache", "toolgate");
  return join(tmpdir(), `toolgate-${userInfo().uid}`);
}

function safeHomedir(): string | undefined {
  try {
    return homedir() || undefined;
  } catch {
    return undefined;
  }
}
