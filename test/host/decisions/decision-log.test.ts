import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { DecisionLog, rotatedPathOf } from "../../../packages/host/src/decisions/decision-log.js";
import { tsxLoader } from "../../helpers/hook-harness.js";
import { outputOf } from "../../helpers/child-output.js";
import { createTempProject, type TempProject } from "../../helpers/temp-project.js";

const writerScript = fileURLToPath(new URL("./fixtures/append-records.mts", import.meta.url));
const projects: TempProject[] = [];
afterEach(() => {
  for (const project of projects.splice(0)) project.remove();
});
function tempProject(): TempProject {
  const project = createTempProject();
  projects.push(project);
  return project;
}

/** Every line of the rotated file, then of the live one, parsed; a line that does not parse fails the test. */
function readRecords(path: string): { writer: number; index: number }[] {
  const text = [rotatedPathOf(path), path]
    .filter((file) => existsSync(file))
    .map((file) => readFileSync(file, "utf8"))
    .join("");
  return text
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as { writer: number; index: number });
}

describe("the decisions log across processes", () => {
  it("many processes appending at once, through a rotation: every line whole, none lost, none twice", async () => {
    const path = join(tempProject().dir, ".toolgate", "decisions.jsonl");
    const writers = 12;
    const perWriter = 150;
    // About 12 × 150 lines of ~110 bytes (200 kB): past the limit once, so every writer races to rotate the
    // same full file, and a second rotation (which would replace the first) cannot happen.
    const maxBytes = 120_000;
    const startAt = Date.now() + 2500;
    const runs = await Promise.all(
      Array.from({ length: writers }, (_, writer) =>
        outputOf(spawn(process.execPath, ["--import", tsxLoader, writerScript, path, String(writer), String(perWriter), String(maxBytes), String(startAt)])),
      ),
    );
    for (const run of runs) expect(run, run.stderr).toMatchObject({ code: 0, stderr: "" });
    const records = readRecords(path);
    expect(existsSync(rotatedPathOf(path))).toBe(true);
    expect(records).toHaveLength(writers * perWriter);
    const seen = new Set(records.map((record) => `${record.writer}:${record.index}`));
    expect(seen.size).toBe(writers * perWriter);
    // Each writer's lines stay in its own order.
    for (let writer = 0; writer < writers; writer++) {
      const indexes = records.filter((record) => record.writer === writer).map((record) => record.index);
      expect(indexes).toEqual([...indexes].sort((a, b) => a - b));
    }
    expect(readFileSync(join(path, "..", ".gitignore"), "utf8")).toBe("*\n");
    expect(existsSync(`${path}.lock`)).toBe(false);
    // 12 processes that each load TypeScript through tsx: 46 s on a loaded 2-core machine.
  }, 180_000);
});

describe("a log that cannot be written never holds the caller, and says so once", () => {
  const cases: [string, (dir: string) => string][] = [
    [
      "a path whose parent is a file",
      (dir) => {
        writeFileSync(join(dir, "not-a-folder"), "");
        return join(dir, "not-a-folder", "decisions.jsonl");
      },
    ],
    // A device is no log: refused before a write (a full disk proper still reports ENOSPC from the write).
    ["a device (/dev/full)", () => "/dev/full"],
  ];
  it.each(cases)("%s", async (_case, pathIn) => {
    const reports: string[] = [];
    const log = new DecisionLog({ path: pathIn(tempProject().dir), report: (message) => reports.push(message) });
    const started = performance.now();
    for (let index = 0; index < 1000; index++) log.append(`{"index":${index}}\n`);
    // Appending is queueing: nothing above waited for the disk (the bound leaves room for a loaded machine).
    expect(performance.now() - started).toBeLessThan(1000);
    await log.flush();
    for (let index = 0; index < 10; index++) {
      log.append(`{"again":${index}}\n`);
      await log.flush();
    }
    await log.close();
    expect(reports).toHaveLength(1);
    expect(reports[0]).toMatch(
      /^(cannot write the decisions log .* \((EEXIST|ENOTDIR|ENOSPC)\)|refusing to write the decisions log \/dev\/full: \/dev\/full is not a regular file); decisions go on, unrecorded$/,
    );
  });

  it("a folder it may not write to", async (context) => {
    const dir = tempProject().dir;
    const readOnly = join(dir, "read-only");
    mkdirSync(readOnly, { mode: 0o555 });
    const writer = withoutWriteOverride();
    if ("skip" in writer) return context.skip(writer.skip);
    const script = `import { DecisionLog } from ${JSON.stringify(fileURLToPath(new URL("../../../packages/host/src/decisions/decision-log.ts", import.meta.url)))};
const log = new DecisionLog({ path: process.argv[1], report: (message) => console.error(message) });
for (let index = 0; index < 100; index++) log.append("{}\\n");
await log.flush();
log.append("{}\\n");
await log.close();
console.log("done");`;
    const [command, ...args] = [
      ...writer.prefix,
      process.execPath,
      "--import",
      tsxLoader,
      "--input-type=module",
      "-e",
      script,
      join(readOnly, ".toolgate", "decisions.jsonl"),
    ];
    const run = await outputOf(spawn(command!, args, { env: { ...process.env, TSX_TSCONFIG_PATH: "" } }));
    expect(run.stdout).toBe("done\n");
    expect(run.stderr.match(/cannot write the decisions log/g)).toHaveLength(1);
    expect(run.stderr).toMatch(/\(EACCES\)/);
  });
});

/**
 * How to start a process that the folder's mode stops from writing. Root writes anywhere (the capability
 * CAP_DAC_OVERRIDE): as root the writer runs without it, still root and still able to read and enter
 * every folder (CAP_DAC_READ_SEARCH), so it works wherever the checkout is, even in a folder only root
 * may enter (/root, a private home, a mktemp -d folder).
 */
function withoutWriteOverride(): { prefix: string[] } | { skip: string } {
  if (process.getuid?.() !== 0) return { prefix: [] };
  const prefix = ["setpriv", "--inh-caps=-dac_override", "--bounding-set=-dac_override", "--"];
  const probe = spawnSync(prefix[0]!, [...prefix.slice(1), process.execPath, "-e", ""], { encoding: "utf8" });
  if (probe.error || probe.status !== 0)
    return {
      skip: `running as root, and \`${prefix.join(" ")}\` could not start a process without the right to write anywhere (${probe.error?.message ?? probe.stderr.trim()}): install util-linux's setpriv, or run the tests as another user`,
    };
  return { prefix };
}
