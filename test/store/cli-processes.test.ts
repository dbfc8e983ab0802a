import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTempDir, parseJsonLines, removeTempDirs, repoRoot, runCli, writeFiles } from "../cli/cli-harness.js";

// The real CLI, one process per invocation, sharing `store: "file"` through the project's config: the
// way `toolgate hook` will run (one process per tool call). TODO(lead): add the same case for
// `toolgate hook` once that command lands.

afterAll(removeTempDirs);

describe('the CLI on store: "file"', () => {
  let cwd: string;
  beforeAll(() => {
    cwd = makeTempDir("os", "store-cli-");
    const rateLimit = JSON.stringify(join(repoRoot, "plugins/rate-limit/src/index.ts"));
    writeFiles(cwd, {
      "toolgate.config.mjs": `export default { store: "file", session: { id: "dev" }, pluginsDir: false, plugins: [[${rateLimit}, { max: 4 }]] };`,
      "calls.jsonl": ["a", "b", "c"].map((id) => JSON.stringify({ id, name: "search", args: {} })).join("\n"),
    });
  });

  it("counts one limit across separate processes", async () => {
    const actions = async () => {
      const { code, stdout, stderr } = await runCli(["run", join(cwd, "calls.jsonl"), "--cwd", cwd, "--json"]);
      expect(stderr).toBe("");
      expect(code).toBe(0);
      return parseJsonLines(stdout).map((line) => (line as { verdict: { action: string } }).verdict.action);
    };
    expect(await actions()).toEqual(["allow", "allow", "allow"]);
    // A second process: "a", "b" and "c" again are the same calls (same ids), counted once.
    expect(await actions()).toEqual(["allow", "allow", "allow"]);
    writeFiles(cwd, { "calls.jsonl": ["d", "e", "f"].map((id) => JSON.stringify({ id, name: "search", args: {} })).join("\n") });
    expect(await actions()).toEqual(["allow", "block", "block"]);
  }, 60_000);
});
