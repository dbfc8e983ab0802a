import type { PluginRecord } from "@toolgate/plugin-sdk";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { makeTempDir, removeTempDirs, runCli, writeFiles } from "../../helpers/cli-harness.js";

afterAll(removeTempDirs);

// Plugins in temp folders cannot import @toolgate/plugin-sdk: plain objects, as the contract allows.
const goodPlugin = `export default { name: "no-rm", version: "1.2.0", hooks: { pre_tool_call() {} } };\n`;
const brokenPlugin = `export default { hooks: { pre_tool_call() {} } };\n`;

function project(files: Record<string, string>): string {
  const dir = makeTempDir("os");
  writeFiles(dir, files);
  return dir;
}

describe("toolgate list", () => {
  it("lists a good and a broken plugin with status, path and error, and exits 0", async () => {
    const cwd = project({ "plugins/good.mjs": goodPlugin, "plugins/broken.mjs": brokenPlugin });

    const { code, stdout } = await runCli(["list", "--cwd", cwd]);

    expect(code).toBe(0);
    expect(stdout).toMatch(/loaded\s+no-rm 1\.2\.0\s+\[folder\]\s+plugins\/good\.mjs/);
    expect(stdout).toMatch(/failed\s+broken\s+\[folder\]\s+plugins\/broken\.mjs/);
    expect(stdout).toContain(`error: ${cwd}/plugins/broken.mjs: not a valid plugin`);
    expect(stdout).toContain("2 plugins: 1 loaded, 1 failed");
  });

  it("prints the plugin records as JSON with --json", async () => {
    const cwd = project({ "plugins/good.mjs": goodPlugin, "plugins/broken.mjs": brokenPlugin });

    const { code, stdout } = await runCli(["list", "--cwd", cwd, "--json"]);

    expect(code).toBe(0);
    const report = JSON.parse(stdout) as { cwd: string; configFile: string | null; plugins: PluginRecord[] };
    expect(report.cwd).toBe(cwd);
    expect(report.configFile).toBeNull();
    expect(report.plugins.map((record) => [record.name, record.status, record.source])).toEqual([
      ["broken", "failed", "folder"],
      ["no-rm", "loaded", "folder"],
    ]);
    expect(report.plugins[0]?.error).toContain("broken.mjs");
    expect(report.plugins[1]).toMatchObject({ version: "1.2.0", path: `${cwd}/plugins/good.mjs`, warnings: [] });
  });

  it("shows a plugin's warnings", async () => {
    const cwd = project({ "plugins/typo.mjs": `export default { name: "typo", hooks: { pre_tool_cal() {} } };\n` });

    const { code, stdout } = await runCli(["list", "--cwd", cwd]);

    expect(code).toBe(0);
    expect(stdout).toContain('warning: unknown hook "pre_tool_cal"');
  });

  it("exits 2 when --cwd is not a folder", async () => {
    const { code, stderr } = await runCli(["list", "--cwd", "/no/such/folder"]);

    expect(code).toBe(2);
    expect(stderr.trim()).toBe("error: --cwd /no/such/folder is not a directory");
  });
});

describe("toolgate check", () => {
  it("exits 0 and says so when every plugin loads", async () => {
    const cwd = project({ "plugins/good.mjs": goodPlugin });

    const { code, stdout } = await runCli(["check", "--cwd", cwd]);

    expect(code).toBe(0);
    expect(stdout).toContain("1 plugin: 1 loaded, 0 failed");
    expect(stdout).toContain("check passed");
  });

  it("exits 1 and names the broken plugin's file when one fails", async () => {
    const cwd = project({ "plugins/good.mjs": goodPlugin, "plugins/broken.mjs": brokenPlugin });

    const { code, stdout } = await runCli(["check", "--cwd", cwd]);

    expect(code).toBe(1);
    expect(stdout).toContain(`${cwd}/plugins/broken.mjs: not a valid plugin`);
    expect(stdout).toContain("check failed: 1 plugin did not load");
  });

  it("reports ok: false with --json", async () => {
    const cwd = project({ "plugins/good.mjs": goodPlugin, "plugins/broken.mjs": brokenPlugin });

    const { code, stdout } = await runCli(["check", "--cwd", cwd, "--json"]);

    expect(code).toBe(1);
    const report = JSON.parse(stdout) as { ok: boolean; plugins: PluginRecord[] };
    expect(report.ok).toBe(false);
    expect(report.plugins.filter((record) => record.status === "failed").map((record) => record.name)).toEqual(["broken"]);
  });

  it("exits 1 with one line naming the config file when the config is invalid", async () => {
    const cwd = project({ "toolgate.config.mjs": `export default { hookTimeoutMs: "soon" };\n`, "plugins/good.mjs": goodPlugin });

    const { code, stdout, stderr } = await runCli(["check", "--cwd", cwd]);

    expect(code).toBe(1);
    expect(stdout).toBe("");
    const lines = stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^error: toolgate\.config\.mjs \(.*toolgate\.config\.mjs\) is invalid: hookTimeoutMs/);
  });

  it("still prints a JSON document for an invalid config with --json", async () => {
    const cwd = project({ "toolgate.config.mjs": `export default { plugins: "no-rm" };\n` });

    const { code, stdout, stderr } = await runCli(["check", "--cwd", cwd, "--json"]);

    expect(code).toBe(1);
    expect(JSON.parse(stdout)).toMatchObject({ ok: false, cwd, error: expect.stringContaining("toolgate.config.mjs") });
    expect(stderr).toContain("toolgate.config.mjs");
  });
});

describe("toolgate check in this repository (what `pnpm toolgate …` runs on)", () => {
  it("loads every example plugin in plugins/ with the options the repository's config gives it", async () => {
    const root = join(dirname(fileURLToPath(import.meta.url)), "../../..");
    const { code, stdout, stderr } = await runCli(["check", "--cwd", root, "--json"]);
    expect(code, stderr).toBe(0);
    const plugins = (JSON.parse(stdout) as { plugins: PluginRecord[] }).plugins;
    expect(plugins.map((plugin) => [plugin.name, plugin.status]).sort()).toEqual(
      ["audit-log", "block-dangerous-shell", "budget", "rate-limit", "read-only-mode"].map((name) => [name, "loaded"]),
    );
  });
});
