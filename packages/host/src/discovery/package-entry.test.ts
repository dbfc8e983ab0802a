import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { resolvePackageEntry } from "./package-entry.js";

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function folder(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), "toolgate-entry-"));
  dirs.push(dir);
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), content);
  }
  return dir;
}

describe("resolvePackageEntry", () => {
  it.each([
    ["exports string", { "package.json": '{"exports":"./a.js"}', "a.js": "" }, "a.js"],
    ["exports conditions under '.'", { "package.json": '{"exports":{".":{"types":"./t.d.ts","import":"./b.mjs"}}}', "b.mjs": "" }, "b.mjs"],
    ["bare conditions", { "package.json": '{"exports":{"node":{"default":"./c.js"}}}', "c.js": "" }, "c.js"],
    ["main", { "package.json": '{"main":"lib/d.js"}', "lib/d.js": "" }, "lib/d.js"],
    ["src/index.ts fallback", { "package.json": "{}", "src/index.ts": "" }, "src/index.ts"],
    ["index without manifest", { "index.mjs": "" }, "index.mjs"],
  ])("%s", (_, files, expected) => {
    const dir = folder(files);
    expect(resolvePackageEntry(dir)).toMatchObject({ ok: true, path: join(dir, expected) });
  });

  it("falls back to src/index.ts when the declared entry is not built yet", () => {
    const dir = folder({ "package.json": '{"exports":{".":{"types":"./dist/index.d.ts","default":"./dist/index.js"}}}', "src/index.ts": "" });
    expect(resolvePackageEntry(dir)).toMatchObject({ ok: true, path: join(dir, "src/index.ts") });
  });

  it("names a declared entry that does not exist", () => {
    const result = resolvePackageEntry(folder({ "package.json": '{"main":"dist/index.js"}' }));
    expect(result).toMatchObject({ ok: false });
    expect(!result.ok && result.reason).toMatch(/names the entry "dist\/index\.js", which does not exist/);
  });
});
