import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { makeTempDir, removeTempDirs, repoRoot, runCli, writeFiles } from "../../helpers/cli-harness.js";

afterAll(removeTempDirs);

const hostVersion = (JSON.parse(readFileSync(join(repoRoot, "packages/toolgate/package.json"), "utf8")) as { version: string }).version;

describe("the toolgate program", () => {
  it("prints its version", async () => {
    const { code, stdout } = await runCli(["--version"]);

    expect(code).toBe(0);
    expect(stdout.trim()).toBe(hostVersion);
  });

  it("lists the commands and documents the exit codes in --help", async () => {
    const { code, stdout } = await runCli(["--help"]);

    expect(code).toBe(0);
    for (const command of ["list", "check", "run", "new", "add"]) expect(stdout).toMatch(new RegExp(`^  ${command} `, "m"));
    expect(stdout).toContain("Exit codes:");
    expect(stdout).toMatch(/^ {2}2 {2}bad usage/m);
  });

  it("says in run --help that it is a dry run, with its exit codes", async () => {
    const { code, stdout } = await runCli(["run", "--help"]);

    expect(code).toBe(0);
    expect(stdout).toContain("dry run");
    expect(stdout).toContain("Exit codes: 0 every call was processed, 1 a plugin failed to load");
  });

  it("exits 2 with commander's error for an unknown command", async () => {
    const { code, stderr } = await runCli(["lsit"]);

    expect(code).toBe(2);
    expect(stderr).toContain("error: unknown command 'lsit'");
    expect(stderr).toContain("(Did you mean list?)");
  });

  it("exits 2 for an unknown option and for no command at all", async () => {
    expect((await runCli(["list", "--colour"])).code).toBe(2);
    expect((await runCli([])).code).toBe(2);
  });

  it("prints no colour codes when stdout is not a terminal, even on CI", async () => {
    const cwd = makeTempDir("os");
    writeFiles(cwd, { "plugins/broken.mjs": "export default {};\n" });

    const { stdout } = await runCli(["list", "--cwd", cwd], { env: { CI: "true" } });

    expect(stdout).toContain("failed");
    expect(stdout).not.toContain("\u001b[");
  });
});
