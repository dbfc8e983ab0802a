import { spawn } from "node:child_process";
import { mkdirSync, readFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { outputOf } from "../helpers/child-output.js";
import { makeTempDir, removeTempDirs, repoRoot, writeFiles } from "../helpers/cli-harness.js";

afterAll(removeTempDirs);

/** The README's first code example under `heading`, as written. */
function exampleUnder(heading: string): string {
  const readme = readFileSync(join(repoRoot, "packages/host/README.md"), "utf8");
  const section = readme.slice(readme.indexOf(`## ${heading}`));
  const code = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
  if (code === undefined) throw new Error(`no ts example under "## ${heading}"`);
  return code;
}

/** `expression; // value` lines print the expression, so the comments can be compared with what ran. */
function printingExpressions(code: string): string {
  return code.replace(/^(\S[^;\n]*);[ \t]+\/\/ .*$/gm, "console.log(JSON.stringify($1));");
}

describe("the host README's first example", () => {
  it("runs as written, with the plugin installed, and its comments are true: the `rm -rf /` is blocked by block-dangerous-shell", async () => {
    const code = exampleUnder("Use it in an agent");
    const dir = makeTempDir("repo", "host-readme-");
    mkdirSync(join(dir, "node_modules"));
    symlinkSync(join(repoRoot, "plugins/block-dangerous-shell"), join(dir, "node_modules/toolgate-plugin-block-dangerous-shell"));
    writeFiles(dir, { "example.mts": printingExpressions(code) });
    const loader = join(repoRoot, "node_modules/tsx/dist/loader.mjs");
    const run = await outputOf(spawn(process.execPath, ["--import", `file://${loader}`, "example.mts"], { cwd: dir }));
    expect(run.code, run.stderr).toBe(0);
    const [status, message] = run.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as unknown);
    expect(status).toBe("blocked");
    expect(message).toMatchObject({ role: "tool", tool_call_id: "call_1" });
    expect((message as { content: string }).content).toContain("block-dangerous-shell");
    expect(run.stdout).not.toContain("ran: rm -rf /");
  });
});
