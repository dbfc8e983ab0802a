import { createHost } from "@toolgate/host";
import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { makeTempDir, removeTempDirs, repoRoot, runCli, writeFiles } from "../../helpers/cli-harness.js";

afterAll(removeTempDirs);

const sdkVersion = (JSON.parse(readFileSync(join(repoRoot, "packages/plugin-sdk/package.json"), "utf8")) as { version: string }).version;
const sdkRange = `^${sdkVersion.split(".").slice(0, 2).join(".")}.0`;

interface Manifest {
  name: string;
  type: string;
  keywords: string[];
  scripts: Record<string, string>;
  peerDependencies: Record<string, string>;
  devDependencies: Record<string, string>;
}

function readText(dir: string, path: string): string {
  return readFileSync(join(dir, path), "utf8");
}

function filesIn(dir: string): string[] {
  return (readdirSync(dir, { recursive: true, withFileTypes: true }) as { isFile(): boolean; name: string; parentPath: string }[])
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1))
    .sort();
}

function exec(command: string, args: string[], cwd: string): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd, env: { ...process.env, NO_COLOR: "1" } });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, output }));
  });
}

describe("toolgate new", () => {
  it("writes a plugin package named after the package", async () => {
    const dir = makeTempDir("repo");

    const { code, stdout, stderr } = await runCli(["new", "toolgate-plugin-no-deploy", "--dir", dir]);

    expect(code).toBe(0);
    expect(stderr).toBe("");
    const pkg = join(dir, "toolgate-plugin-no-deploy");
    expect(stdout).toContain(`created toolgate-plugin-no-deploy in ${relative(repoRoot, pkg)}`);
    expect(filesIn(pkg)).toEqual([
      ".gitignore",
      "README.md",
      "package.json",
      "src/index.test.ts",
      "src/index.ts",
      "toolgate.config.json",
      "toolgate.test.yaml",
      "tsconfig.json",
      "vitest.config.ts",
    ]);
    const manifest = JSON.parse(readText(pkg, "package.json")) as Manifest;
    expect(manifest).toMatchObject({
      name: "toolgate-plugin-no-deploy",
      type: "module",
      scripts: { build: "tsc", test: "vitest run", "test:policy": "toolgate test" },
    });
    expect(manifest.keywords).toContain("toolgate-plugin");
    expect(manifest.peerDependencies).toEqual({ "@toolgate/plugin-sdk": sdkRange });
    expect(manifest.devDependencies).toMatchObject({
      "@toolgate/plugin-sdk": sdkRange,
      "@toolgate/host": expect.any(String),
      toolgate: expect.any(String),
      vitest: expect.any(String),
      typescript: expect.any(String),
    });
    const source = readText(pkg, "src/index.ts");
    expect(source).toContain('import { definePlugin } from "@toolgate/plugin-sdk";');
    expect(source).toContain('name: "no-deploy"');
    expect(readText(pkg, "src/index.test.ts")).toContain('from "@toolgate/host/testing"');
    for (const file of filesIn(pkg)) expect(readText(pkg, file), file).not.toContain("{{");
  });

  it("drops the scope from the folder and the prefix from the plugin name", async () => {
    const dir = makeTempDir("repo");

    const { code, stderr } = await runCli(["new", "@acme/toolgate-plugin-no-secrets", "--dir", dir]);

    expect(code).toBe(0);
    expect(stderr).toBe("");
    const pkg = join(dir, "toolgate-plugin-no-secrets");
    expect((JSON.parse(readText(pkg, "package.json")) as Manifest).name).toBe("@acme/toolgate-plugin-no-secrets");
    expect(readText(pkg, "src/index.ts")).toContain('name: "no-secrets"');
  });

  it("warns, but writes the package, when the name does not follow the convention", async () => {
    const dir = makeTempDir("repo");

    const { code, stderr } = await runCli(["new", "my-policy", "--dir", dir]);

    expect(code).toBe(0);
    expect(stderr).toContain('warning: "my-policy" does not follow the naming convention toolgate-plugin-<name> or @scope/toolgate-plugin-<name>');
    expect(readText(join(dir, "my-policy"), "src/index.ts")).toContain('name: "my-policy"');
  });

  it("refuses a folder that exists, and leaves it alone", async () => {
    const dir = makeTempDir("repo");
    writeFiles(dir, { "toolgate-plugin-mine/src/index.ts": "// mine\n" });

    const { code, stdout, stderr } = await runCli(["new", "toolgate-plugin-mine", "--dir", dir]);

    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr.trim()).toBe(`error: ${join(dir, "toolgate-plugin-mine")} already exists; choose another name or --dir, or remove it first`);
    expect(filesIn(join(dir, "toolgate-plugin-mine"))).toEqual(["src/index.ts"]);
    expect(readText(dir, "toolgate-plugin-mine/src/index.ts")).toBe("// mine\n");
  });

  it.each([
    ["Toolgate-Plugin-Caps", "name can no longer contain capital letters"],
    ["toolgate plugin", "name can only contain URL-friendly characters"],
    [".hidden", "name cannot start with a period"],
  ])("rejects the invalid package name %j", async (name, reason) => {
    const dir = makeTempDir("repo");

    const { code, stderr } = await runCli(["new", name, "--dir", dir]);

    expect(code).toBe(2);
    expect(stderr).toContain(`error: invalid package name "${name}": `);
    expect(stderr).toContain(reason);
    expect(readdirSync(dir)).toEqual([]);
  });

  it("writes a plugin that loads from a project's plugins/ folder and blocks rm -rf /", async () => {
    const project = makeTempDir("repo");

    expect((await runCli(["new", "toolgate-plugin-root-guard", "--dir", join(project, "plugins")])).code).toBe(0);

    const host = await createHost({ cwd: project, logger: false });
    try {
      expect(host.plugins).toEqual([expect.objectContaining({ name: "root-guard", status: "loaded", source: "folder" })]);
      const verdict = await host.checkToolCall({ id: "call_1", name: "terminal", args: { command: "rm -rf /" } });
      expect(verdict).toMatchObject({ action: "block", plugin: "root-guard" });
      expect(await host.checkToolCall({ id: "call_2", name: "terminal", args: { command: "ls" } })).toMatchObject({ action: "allow" });
    } finally {
      await host.close();
    }
    const check = await runCli(["check", "--cwd", project]);
    expect(check.code).toBe(0);
    expect(check.stdout).toContain("root-guard 0.1.0");
  });

  it("writes a plugin whose own tests pass and whose code type-checks", async () => {
    const dir = makeTempDir("repo");
    expect((await runCli(["new", "toolgate-plugin-checked", "--dir", dir])).code).toBe(0);
    const pkg = join(dir, "toolgate-plugin-checked");

    const tests = await exec(join(repoRoot, "node_modules/.bin/vitest"), ["run"], pkg);
    expect(tests.output).toContain("2 passed");
    expect(tests.code).toBe(0);
    const types = await exec(join(repoRoot, "node_modules/.bin/tsc"), ["--noEmit", "-p", "tsconfig.json"], pkg);
    expect(types.output).toBe("");
    expect(types.code).toBe(0);
    expect(existsSync(join(pkg, "dist"))).toBe(false);
  }, 60_000);

  it("writes a first fixture file that toolgate test passes through the plugin, and fails once the plugin stops blocking", async () => {
    const dir = makeTempDir("repo");
    expect((await runCli(["new", "toolgate-plugin-fixtured", "--dir", dir])).code).toBe(0);
    const pkg = join(dir, "toolgate-plugin-fixtured");

    const passing = await runCli(["test", "--json", "--cwd", pkg]);
    expect(passing.code, passing.stderr).toBe(0);
    const report = JSON.parse(passing.stdout) as { passed: number; failed: number; cases: { by?: string }[] };
    expect(report).toMatchObject({ passed: 2, failed: 0 });

    writeFiles(pkg, { "src/index.ts": readText(pkg, "src/index.ts").replace('return { action: "block"', 'return undefined && { action: "block"') });
    const failing = await runCli(["test", "--cwd", pkg]);
    expect(failing.code).toBe(1);
    expect(failing.stdout).toContain("deleting everything from the root is refused");
  }, 60_000);
});
