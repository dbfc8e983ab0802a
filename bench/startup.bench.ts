/**
 * `pnpm bench:startup`: the CLI's start-up as whole processes, side by side with `node -e 0`. When
 * toolgate serves as an agent's hook it starts once per tool call, so this is the latency users feel.
 * Two rows show what embedding the library costs: a process that runs `import("@toolgate/host")` next
 * to one that imports valibot alone (the one dependency every host loads anyway). The host resolves as
 * installed: its built dist/ with the published manifest (scripts/lib/installed-layout.ts).
 *
 * Measures packages/toolgate/dist/cli/main.cjs, the published package's bin (the script builds it first):
 * it runs the bundle, toolgate.cjs, from V8's code cache. Every round runs each scenario once, in a
 * rotating order, so load on the machine hits all of them alike; figures are medians over the rounds
 * after untimed warm-up rounds, which also fill the transpile and code caches: every row is "second run
 * onwards".
 *
 * Node only, no hyperfine: CI machines have node. Usage: tsx bench/startup.bench.ts [--rounds N] [--cli PATH] [--strict]
 * (--strict: exit 1 when a target is missed).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { layOutInstalled } from "../scripts/lib/installed-layout.js";
import { median } from "./measure.js";
import { claudeCodeInput, writeBenchProjects, type BenchProjects } from "./startup-projects.js";
import { formatMs, formatRatio, markdownTable } from "./table.js";

// --cli <path> measures another build (an installed one, an older one) on the same projects.
const cliOption = process.argv.indexOf("--cli");
const cli = cliOption === -1 ? resolve(fileURLToPath(import.meta.url), "../../packages/toolgate/dist/cli/main.cjs") : resolve(process.argv[cliOption + 1]!);

/** The CLI's projects, and a project with @toolgate/host installed and one script per import row. */
interface BenchFolders extends BenchProjects {
  importHost: string;
  importValibot: string;
}

interface Scenario {
  name: string;
  args: (folders: BenchFolders) => string[];
  /** What goes to stdin (the hook commands read the agent's input there). */
  stdin?: (folders: BenchFolders) => string;
  /** The folder the process starts in (agents start their hooks in the project); the bench's own by default. */
  cwd?: (folders: BenchFolders) => string;
  /** Checks one run's output; a scenario that fails is not measured, it stops the bench. */
  expect?: (stdout: string) => string | undefined;
  /** The largest median allowed, as a multiple of `node -e 0`'s. */
  target?: number;
  /** A toolgate command this build may not have yet; the row is skipped (and says so) without it. */
  needs?: string;
}

const toolgate = (...args: string[]) => [cli, ...args];
const loadsAll = (count: number) => (stdout: string) => {
  const report = JSON.parse(stdout) as { plugins: { status: string }[] };
  const loaded = report.plugins.filter((plugin) => plugin.status === "loaded").length;
  return loaded === count ? undefined : `expected ${count} loaded plugins, got ${loaded}: ${stdout}`;
};

// `check --json` stands in for the hook command: parse argv, createHost from the project folder (config
// lookup, plugins/ scan, load, validate), print, exit. The hook rows (one line each: a command, the
// agent's input on stdin) run as soon as the build has `toolgate hook`; another agent is one more line.
const hook = (agent: string, project: keyof BenchProjects, input: (cwd: string) => string) => ({
  args: () => toolgate("hook", agent),
  stdin: (projects: BenchProjects) => input(projects[project]),
  cwd: (projects: BenchProjects) => projects[project],
  needs: "hook",
});
const importValibot = "import valibot";
const importHost = 'import("@toolgate/host")';
const coldScenario = "check, 10 .ts plugins";
const allScenarios: Scenario[] = [
  { name: "node -e 0", args: () => ["-e", "0"] },
  { name: importValibot, args: (f) => [f.importValibot] },
  { name: importHost, args: (f) => [f.importHost] },
  { name: "check, no plugins", args: (p) => toolgate("check", "--json", "--cwd", p.empty), expect: loadsAll(0), target: 1.3 },
  { name: "check, 10 .ts plugins", args: (p) => toolgate("check", "--json", "--cwd", p.typescript), expect: loadsAll(10), target: 1.5 },
  { name: "check, 10 .js plugins", args: (p) => toolgate("check", "--json", "--cwd", p.javascript), expect: loadsAll(10), target: 1.5 },
  { name: "hook claude-code, no plugins", ...hook("claude-code", "empty", claudeCodeInput), target: 1.3 },
  { name: "hook claude-code, 10 .ts plugins", ...hook("claude-code", "typescript", claudeCodeInput), target: 1.5 },
];

/** Whether this build of the CLI has `command`: `toolgate --help` lists it. */
function hasCommand(command: string): boolean {
  const help = spawnSync(process.execPath, toolgate("--help"), { encoding: "utf8" }).stdout;
  return new RegExp(`^\\s+${command}\\b`, "m").test(help);
}

interface RunResult {
  ms: number;
  /** The child's user + system CPU time, where the OS tells (Linux); in 10 ms ticks, so only a mean says much. */
  cpuMs: number | undefined;
  stdout: string;
}

/**
 * CPU time of the children this process has waited for (Linux: /proc/self/stat, fields cutime and
 * cstime, in clock ticks of 10 ms). On a busy machine wall time also counts the wait for a core;
 * CPU time does not, so it shows what the process itself costs.
 */
function childrenCpuMs(): number | undefined {
  try {
    const fields = readFileSync("/proc/self/stat", "utf8")
      .replace(/^.*\) /s, "")
      .split(" ");
    return (Number(fields[13]) + Number(fields[14])) * 10;
  } catch {
    return undefined;
  }
}

/** A folder where @toolgate/host is installed as users get it, with the two import scripts. */
function writeImportProbes(dir: string): Pick<BenchFolders, "importHost" | "importValibot"> {
  mkdirSync(dir, { recursive: true });
  layOutInstalled("@toolgate/host", dir);
  const probes = { importHost: join(dir, "import-host.mjs"), importValibot: join(dir, "import-valibot.mjs") };
  writeFileSync(probes.importHost, 'await import("@toolgate/host");\n');
  writeFileSync(probes.importValibot, 'await import("valibot");\n');
  return probes;
}

function runOnce(scenario: Scenario, projects: BenchFolders, env: NodeJS.ProcessEnv): RunResult {
  const input = scenario.stdin?.(projects);
  const cpuBefore = childrenCpuMs();
  const started = performance.now();
  const cwd = scenario.cwd?.(projects);
  const child = spawnSync(process.execPath, scenario.args(projects), { env, input, cwd, encoding: "utf8", stdio: ["pipe", "pipe", "pipe"] });
  const ms = performance.now() - started;
  const cpuAfter = childrenCpuMs();
  const cpuMs = cpuBefore === undefined || cpuAfter === undefined ? undefined : cpuAfter - cpuBefore;
  if (child.status !== 0) throw new Error(`${scenario.name}: exit ${child.status ?? child.signal}\n${child.stderr}`);
  const problem = scenario.expect?.(child.stdout);
  if (problem) throw new Error(`${scenario.name}: ${problem}`);
  return { ms, cpuMs, stdout: child.stdout };
}

function option(name: string, fallback: number): number {
  const index = process.argv.indexOf(name);
  return index === -1 ? fallback : Number(process.argv[index + 1]);
}

function main(): number {
  if (!existsSync(cli)) throw new Error(`${cli} does not exist; build the host first (pnpm --filter @toolgate/host run build)`);
  const rounds = option("--rounds", 25);
  const warmup = 3;
  const present = new Map<string, boolean>();
  const runnable = (scenario: Scenario) =>
    scenario.needs === undefined || (present.get(scenario.needs) ?? present.set(scenario.needs, hasCommand(scenario.needs)).get(scenario.needs)!);
  const scenarios = allScenarios.filter(runnable);
  const skipped = allScenarios.filter((scenario) => !scenarios.includes(scenario));
  const work = mkdtempSync(join(tmpdir(), "toolgate-startup-bench-"));
  try {
    const projects = { ...writeBenchProjects(work), ...writeImportProbes(join(work, "installed")) };
    // Its own transpile and code caches, so the first run is a cold one whatever ran before.
    const env = { ...process.env, TOOLGATE_CACHE_DIR: join(work, "cache"), NO_COLOR: "1" };
    const cold = runOnce(allScenarios.find((scenario) => scenario.name === coldScenario)!, projects, env).ms;
    const samples = scenarios.map(() => [] as number[]);
    const cpu = scenarios.map(() => [] as number[]);
    for (let round = -warmup; round < rounds; round++) {
      for (let step = 0; step < scenarios.length; step++) {
        const index = (step + Math.max(round, 0)) % scenarios.length;
        const { ms, cpuMs } = runOnce(scenarios[index]!, projects, env);
        if (round < 0) continue;
        samples[index]!.push(ms);
        if (cpuMs !== undefined) cpu[index]!.push(cpuMs);
      }
    }
    return report(scenarios, samples, cpu, { rounds, cold, skipped });
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

interface ReportNotes {
  rounds: number;
  /** The first run with 10 .ts plugins, transpile and code caches empty. */
  cold: number;
  skipped: Scenario[];
}

function report(scenarios: Scenario[], samples: number[][], cpu: number[][], { rounds, cold, skipped }: ReportNotes): number {
  const baseline = median(samples[0]!);
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  const cpuBaseline = cpu[0]!.length > 0 ? mean(cpu[0]!) : undefined;
  let missed = 0;
  const rows = scenarios.map((scenario, index) => {
    const ms = median(samples[index]!);
    const ratio = ms / baseline;
    const pass = scenario.target === undefined || ratio <= scenario.target;
    if (!pass) missed++;
    const verdict = scenario.target === undefined ? "" : `${pass ? "PASS" : "FAIL"} (≤ ${formatRatio(scenario.target)})`;
    const cpuMs = cpu[index]!.length > 0 ? mean(cpu[index]!) : undefined;
    const cpuCells = cpuMs === undefined || cpuBaseline === undefined ? ["n/a", "n/a"] : [formatMs(cpuMs), formatRatio(cpuMs / cpuBaseline)];
    return [scenario.name, formatMs(ms), formatRatio(ratio), verdict, ...cpuCells];
  });
  console.log(`toolgate start-up, whole processes: median wall time over ${rounds} interleaved rounds, node ${process.version}, ${cli}\n`);
  const headers = ["process", "median ms", "× node -e 0", "target", "CPU ms (mean)", "CPU × node -e 0"];
  console.log(markdownTable(headers, rows, (column) => column !== 0 && column !== 3));
  console.log(`\n${libraryImportCost(scenarios, samples, cpu)}`);
  console.log(`first run with 10 .ts plugins (cold transpile and code caches, not a target): ${formatMs(cold)} ms`);
  for (const scenario of skipped) console.log(`skipped "${scenario.name}": this build has no \`toolgate ${scenario.needs}\``);
  return missed > 0 && process.argv.includes("--strict") ? 1 : 0;
}

/**
 * The host's import next to valibot's, from the same interleaved rounds: wall-time medians, and the
 * mean CPU time, which a busy machine inflates far less than wall time.
 */
function libraryImportCost(scenarios: Scenario[], samples: number[][], cpu: number[][]): string {
  const at = (name: string) => scenarios.findIndex((scenario) => scenario.name === name);
  const [node, valibot, host] = ["node -e 0", importValibot, importHost].map(at) as [number, number, number];
  const wall = (index: number) => median(samples[index]!);
  const lines = [
    `${importHost} vs ${importValibot} alone: ${formatRatio(wall(host) / wall(valibot))} the wall time (${formatMs(wall(host))} vs ${formatMs(wall(valibot))} ms); ` +
      `above node -e 0, ${formatMs(wall(host) - wall(node))} vs ${formatMs(wall(valibot) - wall(node))} ms`,
  ];
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  if (cpu[host]!.length > 0 && cpu[valibot]!.length > 0 && cpu[node]!.length > 0) {
    const [hostCpu, valibotCpu, nodeCpu] = [mean(cpu[host]!), mean(cpu[valibot]!), mean(cpu[node]!)];
    lines.push(
      `  CPU (mean): ${formatRatio(hostCpu / valibotCpu)} (${formatMs(hostCpu)} vs ${formatMs(valibotCpu)} ms); above node -e 0, ${formatMs(hostCpu - nodeCpu)} vs ${formatMs(valibotCpu - nodeCpu)} ms`,
    );
  }
  return lines.join("\n");
}

process.exitCode = main();
