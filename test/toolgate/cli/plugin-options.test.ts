import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { makeTempDir, removeTempDirs, repoRoot, runCli, writeFiles } from "../../helpers/cli-harness.js";

afterAll(removeTempDirs);

interface CheckJson {
  ok: boolean;
  plugins: { name: string; status: string; path: string; error?: string }[];
}

const plugin = (name: string) => join(repoRoot, `plugins/${name}/src/index.ts`);

/** `toolgate check --json` on a project whose config names one plugin with `options`: the plugin's report. */
async function checkPlugin(name: string, options: object) {
  const dir = makeTempDir("repo", "plugin-options-");
  writeFiles(dir, { "toolgate.config.json": JSON.stringify({ pluginsDir: false, plugins: [[plugin(name), options]] }) });
  const run = await runCli(["check", "--json", "--cwd", dir]);
  expect(run.code, run.stderr).toBe(1);
  const report = JSON.parse(run.stdout) as CheckJson;
  expect(report.ok).toBe(false);
  return report.plugins[0]!;
}

describe("a plugin option the plugin does not know", () => {
  it.each([
    ["read-only-mode", { alow: ["Read"] }, "alow", "allow"],
    ["rate-limit", { mex: 2 }, "mex", "max"],
    ["budget", { limit: 3, perod: "session" }, "perod", "per"],
    ["audit-log", { includeArg: false }, "includeArg", "includeArgs"],
    ["block-dangerous-shell", { extraRules: [{ id: "x", pattern: "y", message: "z", flag: "i" }] }, "extraRules.0.flag", "flags"],
  ])("%s: the error names the plugin, its file, the key and the nearest known key", async (name, options, key, meant) => {
    const report = await checkPlugin(name, options);
    expect(report.status).toBe("failed");
    expect(report.error).toContain(plugin(name));
    expect(report.error).toContain(`${name}: option "${key}": is not`);
    expect(report.error).toMatch(new RegExp(`did you mean "${meant}"\\?$`));
  });

  it("a key far from every known one gets no guess", async () => {
    const report = await checkPlugin("rate-limit", { somethingElse: 1 });
    expect(report.error).toContain('rate-limit: option "somethingElse": is not an option of this plugin');
    expect(report.error).not.toContain("did you mean");
  });

  it("a required key left out is named as required, not guessed", async () => {
    const report = await checkPlugin("block-dangerous-shell", { extraRules: [{ pattern: "y", message: "z" }] });
    expect(report.error).toMatch(/block-dangerous-shell: option "extraRules\.0\.id" is required$/);
  });
});
