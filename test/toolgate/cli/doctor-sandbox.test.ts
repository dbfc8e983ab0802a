import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { probeSandbox } from "@toolgate/sandbox";
import { makeTempDir, removeTempDirs, repoRoot, runCli, writeFiles } from "../../helpers/cli-harness.js";

afterAll(removeTempDirs);

/** A project whose config adds the sandbox the way `toolgate add` names a plugin. */
function sandboxedProject(): string {
  const dir = makeTempDir("repo", "doctor-sandbox-");
  const plugin = join(repoRoot, "packages/sandbox/src/index.ts");
  writeFiles(dir, { "toolgate.config.json": JSON.stringify({ plugins: [plugin] }) });
  return dir;
}

interface DoctorJson {
  ok: boolean;
  project: { problem: string | null; sandbox: { used: boolean; works?: boolean; advice?: string } };
}

describe("toolgate doctor and the sandbox", () => {
  it.skipIf(!probeSandbox(process.env).available)("says the sandbox works where bubblewrap starts", async () => {
    const run = await runCli(["doctor", "--json"], { cwd: sandboxedProject() });
    const report = JSON.parse(run.stdout) as DoctorJson;
    expect(report.project.sandbox).toEqual({ used: true, works: true });
    expect(report.project.problem).toBeNull();
    expect((await runCli(["doctor"], { cwd: sandboxedProject() })).stdout).toMatch(/sandbox\s+works: shell calls run inside bubblewrap/);
  });

  it("fails, naming what to install, where bubblewrap is missing", async () => {
    const run = await runCli(["doctor", "--json"], { cwd: sandboxedProject(), env: { PATH: "/nonexistent-toolgate-bin" } });
    const report = JSON.parse(run.stdout) as DoctorJson;
    expect(run.code).toBe(1);
    expect(report.ok).toBe(false);
    expect(report.project.sandbox).toMatchObject({ used: true, works: false });
    expect(report.project.problem).toMatch(
      /no sandbox can start on this machine: (bubblewrap \(bwrap\) is not installed.*apt-get install bubblewrap|.*Linux only)/,
    );
  });

  it("says nothing of a sandbox the project does not use", async () => {
    const dir = makeTempDir("repo", "doctor-plain-");
    writeFiles(dir, { "toolgate.config.json": JSON.stringify({ permissions: { deny: ["bash:command=rm *"] } }) });
    const report = JSON.parse((await runCli(["doctor", "--json"], { cwd: dir })).stdout) as DoctorJson;
    expect(report.project.sandbox).toEqual({ used: false });
  });
});
