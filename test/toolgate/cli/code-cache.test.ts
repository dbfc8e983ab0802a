import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { makeTempDir, removeTempDirs, repoRoot, writeFiles } from "../../helpers/cli-harness.js";

// The bin runs the CLI's bundle through runWithCodeCache (packages/toolgate/src/cli/bin.ts). These run a
// small bundle of the same shape through it, in real processes, with real cache folders.

const codeCache = pathToFileURL(join(repoRoot, "packages/toolgate/src/cli/code-cache.ts")).href;
const tsxLoader = pathToFileURL(join(repoRoot, "node_modules/tsx/dist/loader.mjs")).href;

afterAll(removeTempDirs);

/** A bundle as scripts/bundle.mjs leaves it: CommonJS, its dynamic imports calling __toolgateImport. */
function writeBundle(dir: string, body = ""): string {
  writeFiles(dir, {
    "helper.cjs": "exports.greet = (word) => `hello ${word}`;",
    "late.mjs": 'export const word = "world";',
    "run.mts": [
      `import { runWithCodeCache } from ${JSON.stringify(codeCache)};`,
      "const [bundle, cacheDir, buildId, name] = process.argv.slice(2);",
      'runWithCodeCache(bundle, { cacheDir: cacheDir === "-" ? undefined : cacheDir, name, buildId });',
    ].join("\n"),
    "bundle.cjs": [
      '"use strict";',
      'const { greet } = require("./helper.cjs");',
      body,
      '__toolgateImport("./late.mjs").then(({ word }) => process.stdout.write(`${greet(word)} from ${require("node:path").basename(__filename)}\\n`));',
    ].join("\n"),
  });
  return dir;
}

function run(dir: string, cacheDir: string, buildId = "build-1", name = "cli", env: NodeJS.ProcessEnv = process.env) {
  const child = spawnSync(process.execPath, ["--import", tsxLoader, join(dir, "run.mts"), join(dir, "bundle.cjs"), cacheDir, buildId, name], {
    encoding: "utf8",
    env,
  });
  return { code: child.status, stdout: child.stdout, stderr: child.stderr };
}

const cacheFiles = (cacheDir: string) => (existsSync(cacheDir) ? readdirSync(cacheDir).filter((name) => name.endsWith(".v8")) : []);
// These runs load tsx with --import: their Node options add a tag to the file name.
const withoutFlagsTag = (name: string) => name.replace(/-flags-[0-9a-f]+(?=\.v8$)/, "");

describe("runWithCodeCache", () => {
  it("runs the bundle as CommonJS with its dynamic imports, stores V8's code on the first run and reuses it after", () => {
    const dir = writeBundle(makeTempDir("os", "code-cache-"));
    const cacheDir = join(dir, "cache");
    const first = run(dir, cacheDir);
    expect(first).toEqual({ code: 0, stdout: "hello world from bundle.cjs\n", stderr: "" });
    const [file] = cacheFiles(cacheDir);
    expect(withoutFlagsTag(file!)).toBe(`cli-build-1-${process.version}-${process.arch}.v8`);
    const stored = statSync(join(cacheDir, file!));
    expect(stored.size).toBeGreaterThan(0);
    expect(stored.mode & 0o077).toBe(0);

    // Accepted by V8, the cache is not written again.
    const second = run(dir, cacheDir);
    expect(second).toEqual(first);
    expect(statSync(join(cacheDir, file!)).mtimeMs).toBe(stored.mtimeMs);
  });

  it("ignores a damaged cache file and replaces it", () => {
    const dir = writeBundle(makeTempDir("os", "code-cache-"));
    const cacheDir = join(dir, "cache");
    run(dir, cacheDir);
    const file = join(cacheDir, cacheFiles(cacheDir)[0]!);
    const garbage = Buffer.alloc(statSync(file).size, 0x5a);
    writeFileSync(file, garbage);
    expect(run(dir, cacheDir)).toEqual({ code: 0, stdout: "hello world from bundle.cjs\n", stderr: "" });
    expect(readFileSync(file).equals(garbage)).toBe(false);
    expect(run(dir, cacheDir).stdout).toBe("hello world from bundle.cjs\n");
  });

  it("keeps one cache per build, name and Node options, so a new build never runs an old one's code", () => {
    const dir = writeBundle(makeTempDir("os", "code-cache-"));
    const cacheDir = join(dir, "cache");
    run(dir, cacheDir, "build-1");
    run(dir, cacheDir, "build-2");
    run(dir, cacheDir, "build-2", "cli-hook");
    const suffix = `${process.version}-${process.arch}.v8`;
    expect(cacheFiles(cacheDir).map(withoutFlagsTag).sort()).toEqual([`cli-build-1-${suffix}`, `cli-build-2-${suffix}`, `cli-hook-build-2-${suffix}`]);
    expect(run(dir, cacheDir, "build-2", "cli-hook", { ...process.env, NODE_OPTIONS: "--max-old-space-size=300" }).code).toBe(0);
    expect(cacheFiles(cacheDir)).toHaveLength(4);
  });

  it.each([
    ["a cache folder that cannot be created", (dir: string) => join(dir, "helper.cjs", "cache")],
    ["no cache folder at all", () => "-"],
  ])("runs the same with %s, printing nothing of its own", (_, cacheDirIn) => {
    const dir = writeBundle(makeTempDir("os", "code-cache-"));
    const cacheDir = cacheDirIn(dir);
    expect(run(dir, cacheDir)).toEqual({ code: 0, stdout: "hello world from bundle.cjs\n", stderr: "" });
    expect(run(dir, cacheDir)).toEqual({ code: 0, stdout: "hello world from bundle.cjs\n", stderr: "" });
  });

  it("neither reads nor writes a cache in a folder others can write to", () => {
    const dir = writeBundle(makeTempDir("os", "code-cache-"));
    const cacheDir = join(dir, "cache");
    mkdirSync(cacheDir);
    chmodSync(cacheDir, 0o777);
    expect(run(dir, cacheDir)).toEqual({ code: 0, stdout: "hello world from bundle.cjs\n", stderr: "" });
    expect(cacheFiles(cacheDir)).toEqual([]);
    // A cache planted there is not read either: made private, the folder's cache is used again.
    chmodSync(cacheDir, 0o700);
    run(dir, cacheDir);
    const file = join(cacheDir, cacheFiles(cacheDir)[0]!);
    chmodSync(cacheDir, 0o777);
    writeFileSync(file, "planted");
    expect(run(dir, cacheDir).stdout).toBe("hello world from bundle.cjs\n");
    expect(readFileSync(file, "utf8")).toBe("planted");
  });

  it("lets an error thrown by the bundle end the process with a failure, as Node would", () => {
    const dir = writeBundle(makeTempDir("os", "code-cache-"), 'throw new Error("bundle failed");');
    const result = run(dir, join(dir, "cache"));
    expect(result.code).not.toBe(0);
    expect(result.stdout).toBe("");
    expect(result.stderr).toContain("bundle failed");
  });
});
