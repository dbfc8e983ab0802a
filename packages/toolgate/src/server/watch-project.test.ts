import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { watchProject } from "./watch-project.js";

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

it("a plugins/ folder created after the start is watched from then on, without watching again", async () => {
  const cwd = mkdtempSync(join(tmpdir(), "toolgate-watch-"));
  let changes = 0;
  const stop = watchProject({ cwd, pluginFiles: [], debounceMs: 20, onChange: () => changes++ });
  cleanups.push(stop, () => rmSync(cwd, { recursive: true, force: true }));
  mkdirSync(join(cwd, "plugins"));
  await expect.poll(() => changes, { timeout: 30_000 }).toBe(1);
  // Let the folder's own creation settle, then a file inside it must be seen by this same watcher.
  await new Promise((resolve) => setTimeout(resolve, 200));
  const before = changes;
  writeFileSync(join(cwd, "plugins/block.ts"), "export default {}");
  await expect.poll(() => changes, { timeout: 30_000 }).toBeGreaterThan(before);
});
