/**
 * `pnpm exec tsx bench/shell-guard.bench.ts`: what block-dangerous-shell costs per decision.
 *
 * Times the plugin's decision (`checkCommand`: lex, parse, unwrap, classify deletes, every rule of every
 * pack) on a 100 B and a 10 KB command line, and the same calls through a real host's gate
 * (`host.checkToolCall`, the plugin loaded as users load it). Each sample runs `perSample` decisions in a
 * row; the printed figure is the median sample divided by `perSample`. The target (10 KB well under a
 * millisecond) is printed as PASS/FAIL and never changes the exit code: a benchmark reports, CI gates.
 *
 * `… shell-guard.bench.ts <other>/plugins/block-dangerous-shell/src` also times that copy of the plugin
 * (another checkout, e.g. `git worktree add /tmp/base main`) on the same decisions, sample by sample in
 * turn with this one, and prints the ratio: on a busy machine only figures taken side by side compare.
 */
import { availableParallelism, loadavg } from "node:os";
import { resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createHost } from "@toolgate/host";
import { checkCommand, type Guard } from "../plugins/block-dangerous-shell/src/check.js";
import { resolveOptions } from "../plugins/block-dangerous-shell/src/options.js";

const samples = 41;
const packs = ["databases", "containers", "kubernetes", "cloud", "terraform"];
const targetMs = 0.5;
const projectRoot = "/home/dev/project";

const short = 'git add -A && git commit -m "fix: handle empty input" && git push origin main 2>&1 | tail -5';

/** A 10 KB line of the kind agents write: chained builds, quoted arguments, substitutions, a heredoc-fed commit. */
function longCommand(size: number): string {
  // Each step names its own paths (`n`), so nothing is decided twice by accident of repetition.
  const steps = [
    (n: number) => `cd packages/app${n} && npm run build -- --mode "production" --out-dir ./dist 2>&1 | tee build-${n}.log`,
    (n: number) => `rm -rf ./dist${n}/*.map ./coverage-${n} node_modules/.cache/v${n}`,
    (n: number) => `find ./src/m${n} -name "*.orig" -delete`,
    (n: number) => `grep -rn "TODO(rm -rf /) ${n}" src | wc -l`,
    (n: number) => `for f in $(git diff --name-only HEAD~${n}); do echo "changed: $f"; done`,
    (n: number) => `python3 -c "import json,sys; print(json.load(open('package${n}.json'))['version'])"`,
    (n: number) => `docker build -t app${n}:"$(git rev-parse --short HEAD)" .`,
    () => "cd ../..",
  ];
  let text = "";
  for (let index = 0; text.length < size - 200; index++) text += `${steps[index % steps.length]!(index)}; `;
  return `${text}git commit -m "$(cat <<'EOF'\nfix: don't drop the cache (see #12)\nEOF\n)"`;
}

interface Figure {
  /** Median wall time per decision. */
  wall: number;
  /** Median CPU time of this process per decision: on a busy machine, closer to the cost itself. */
  cpu: number;
}

async function measure(run: () => unknown, perSample: number): Promise<Figure> {
  for (let i = 0; i < perSample * 5; i++) await run();
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let sample = 0; sample < samples; sample++) {
    const start = performance.now();
    const startCpu = process.cpuUsage();
    for (let i = 0; i < perSample; i++) await run();
    const used = process.cpuUsage(startCpu);
    wall.push((performance.now() - start) / perSample);
    cpu.push((used.user + used.system) / 1000 / perSample);
  }
  return { wall: median(wall), cpu: median(cpu) };
}

function median(values: number[]): number {
  return values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
}

// The reader keeps its last few readings for the consumers of one decision (sharedAnalysis): every decision
// timed here gets a line of its own, a comment line ahead of the command, so each one is read afresh.
let lineNumber = 0;
const fresh = (command: string) => `#${lineNumber++}\n${command}`;

const format = (ms: number) => (ms >= 0.1 ? `${ms.toFixed(3)} ms` : `${(ms * 1000).toFixed(1)} µs`);

type Decide = (command: string) => unknown;

/** Medians of CPU time per decision for two implementations, their samples taken in turn. */
function sideBySide(current: Decide, baseline: Decide, command: string, perSample: number): { current: number; baseline: number } {
  const cpu = { current: [] as number[], baseline: [] as number[] };
  for (let i = 0; i < perSample * 5; i++) {
    current(fresh(command));
    baseline(fresh(command));
  }
  for (let sample = 0; sample < samples; sample++) {
    for (const [key, decide] of [
      ["current", current],
      ["baseline", baseline],
    ] as const) {
      const start = process.cpuUsage();
      for (let i = 0; i < perSample; i++) decide(fresh(command));
      const used = process.cpuUsage(start);
      cpu[key].push((used.user + used.system) / 1000 / perSample);
    }
  }
  return { current: median(cpu.current), baseline: median(cpu.baseline) };
}

async function compareWith(folder: string, guard: Guard, cases: [string, string, number][]): Promise<void> {
  const check = (await import(pathToFileURL(resolve(folder, "check.ts")).href)) as { checkCommand: (command: string, guard: unknown) => unknown };
  const options = (await import(pathToFileURL(resolve(folder, "options.ts")).href)) as {
    resolveOptions: (input: unknown, environment: unknown) => { guard: unknown };
  };
  const { guard: baseGuard } = options.resolveOptions({ packs }, { projectRoot, home: "/home/dev" });
  console.log(`\nside by side with ${folder} (CPU time per decision, medians of ${samples} samples taken in turn):`);
  for (const [name, command, perSample] of cases) {
    const figure = sideBySide(
      (text) => checkCommand(text, guard),
      (text) => check.checkCommand(text, baseGuard),
      command,
      perSample,
    );
    const ratio = figure.baseline / figure.current;
    const verdict = ratio >= 1 ? `${ratio.toFixed(2)}× faster` : `${(1 / ratio).toFixed(2)}× slower`;
    console.log(`  ${name.padEnd(28)} baseline ${format(figure.baseline).padStart(10)}  this ${format(figure.current).padStart(10)}  ${verdict}`);
  }
}

async function main(): Promise<void> {
  const long = longCommand(10_240);
  const { guard } = resolveOptions({ packs }, { projectRoot, home: "/home/dev" });
  for (const command of [short, long, heredocCommand(10_240), pythonCommand(10_240)]) {
    const { violation, analysis } = checkCommand(command, guard);
    if (violation) throw new Error(`bench command is blocked (${violation.rule}): fix the fixture`);
    if (analysis.invocations.length === 0) throw new Error("bench command parsed to nothing");
  }
  const plugin = fileURLToPath(new URL("../plugins/block-dangerous-shell/src/index.ts", import.meta.url));
  const host = await createHost({
    cwd: projectRoot,
    pluginsDir: false,
    configFile: false,
    logger: false,
    plugins: [[plugin, { packs }]],
  });
  const call = (command: string) => ({ id: "bench", name: "Bash", args: { command } });

  const script = heredocCommand(10_240);
  const python = pythonCommand(10_240);
  const figures: [string, Figure][] = [
    ["decision, 100 B", await measure(() => checkCommand(fresh(short), guard), 2_000)],
    [`decision, 10 KB chained (${checkCommand(long, guard).analysis.invocations.length} commands)`, await measure(() => checkCommand(fresh(long), guard), 100)],
    ["decision, 10 KB heredoc to a file", await measure(() => checkCommand(fresh(script), guard), 100)],
    ["decision, 10 KB python -c script", await measure(() => checkCommand(fresh(python), guard), 100)],
    ["host.checkToolCall, 100 B", await measure(() => host.checkToolCall(call(fresh(short))), 2_000)],
    ["host.checkToolCall, 10 KB chained", await measure(() => host.checkToolCall(call(fresh(long))), 100)],
  ];
  await host.close();
  const out = console.log;
  const load = loadavg()
    .map((value) => value.toFixed(1))
    .join(" ");
  out(
    `block-dangerous-shell, every pack on; per decision, median of ${samples} samples (wall time / CPU time of this process); ${availableParallelism()} cores, load average ${load}`,
  );
  for (const [name, figure] of figures) out(`  ${name.padEnd(44)} ${format(figure.wall).padStart(10)} wall  ${format(figure.cpu).padStart(10)} cpu`);
  const worst = Math.min(figures[1]![1].wall, figures[1]![1].cpu);
  out(`target: a 10 KB decision under ${targetMs} ms → ${format(worst)} ${worst < targetMs ? "PASS" : "FAIL"}`);
  const baseline = process.argv[2];
  if (baseline !== undefined)
    await compareWith(baseline, guard, [
      ["decision, 100 B", short, 2_000],
      ["decision, 10 KB chained", long, 100],
      ["decision, 10 KB heredoc", script, 100],
      ["decision, 10 KB python -c", python, 100],
    ]);
}

/** A 10 KB `python3 -c` program: string literals, calls, a subprocess, a file move. */
function pythonCommand(size: number): string {
  const line =
    "import json, os, subprocess; data = json.load(open('package.json')); print(data.get('name', 'unknown')); subprocess.run(['git', 'status']); os.rename('a.txt', 'b.txt')\n";
  return `python3 -c "${line.repeat(Math.ceil(size / line.length))}"`;
}

/** A 10 KB file written through a heredoc: the other common shape of a long command line. */
function heredocCommand(size: number): string {
  const line = "export function add(a: number, b: number): number { return a + b; } // rm -rf / is only text here\n";
  return `mkdir -p src && cat > src/generated.ts <<'EOF'\n${line.repeat(Math.ceil(size / line.length))}EOF\nnpx tsc --noEmit`;
}

await main();
