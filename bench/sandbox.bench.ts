/**
 * `pnpm bench:sandbox`: what `@toolgate/sandbox` adds to starting a short command. Each row runs, as an
 * agent's shell would, `bash -c <command>` and `bash -c <the same command as the sandbox rewrites it>`, in
 * turn within every round (so load on the machine hits both alike); figures are medians over the rounds
 * after warm-up rounds. Usage: tsx bench/sandbox.bench.ts [--rounds N]
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, cpus, release } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { bwrapArguments, containLine, networkPrefix, sandboxStatus } from "@toolgate/sandbox";
import { median } from "./measure.js";
import { formatMs, formatRatio, markdownTable } from "./table.js";

const warmup = 5;
const commands = ["true", "ls"];

/** Prints the table: each command's start, uncontained and contained, with what the sandbox adds. */
export function runSandboxBench(rounds: number): void {
  const status = sandboxStatus();
  if (!status.available) {
    console.log(`sandbox bench skipped: no sandbox can start here: ${status.problem}; ${status.advice}`);
    return;
  }
  const tmp = resolve(fileURLToPath(import.meta.url), "../../test/.tmp");
  mkdirSync(tmp, { recursive: true });
  const project = mkdtempSync(join(tmp, "bench-sandbox-"));
  const bwrapArgs = bwrapArguments({ projectRoot: project, writable: [], readOnly: [], hidden: [], network: "off" });
  try {
    const rows = commands.map((command) => benchRow(`\`${command}\``, command, containLine(command, status, bwrapArgs), project, rounds));
    // With network: { allow }, the command also starts its allow-listing proxy (a Node process) and the bridge inside (another).
    const prefix = networkPrefix(["registry.npmjs.org"]);
    if ("before" in prefix)
      rows.push(benchRow("`true`, network: { allow }", "true", containLine("true", { ...status, before: prefix.before }, bwrapArgs), project, rounds));
    console.log(
      `\nsandbox: Node ${process.version}, Linux ${release()}, ${availableParallelism()} CPUs (${cpus()[0]?.model ?? "?"}), ${status.bwrap}, ${rounds} rounds`,
    );
    console.log(markdownTable(["command", "uncontained ms", "contained ms", "added ms", "ratio"], rows, (column) => column > 0));
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
}

function benchRow(label: string, command: string, contained: string, project: string, rounds: number): string[] {
  const plain: number[] = [];
  const boxed: number[] = [];
  for (let round = 0; round < warmup + rounds; round++) {
    const first = round % 2 === 0;
    const a = timeMs(first ? command : contained, project);
    const b = timeMs(first ? contained : command, project);
    if (round < warmup) continue;
    plain.push(first ? a : b);
    boxed.push(first ? b : a);
  }
  const bare = median(plain);
  const inside = median(boxed);
  return [label, formatMs(bare), formatMs(inside), formatMs(inside - bare), formatRatio(inside / bare)];
}

function timeMs(line: string, project: string): number {
  const start = process.hrtime.bigint();
  const run = spawnSync("bash", ["-c", line], { cwd: project, stdio: "ignore" });
  if (run.status !== 0) throw new Error(`\`${line}\` exited ${run.status}`);
  return Number(process.hrtime.bigint() - start) / 1e6;
}

if (process.argv[1] !== undefined && fileURLToPath(import.meta.url) === resolve(process.argv[1])) {
  const roundsOption = process.argv.indexOf("--rounds");
  runSandboxBench(roundsOption === -1 ? 60 : Number(process.argv[roundsOption + 1]));
}
