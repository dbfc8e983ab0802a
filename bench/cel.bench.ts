/**
 * `pnpm bench:cel`: what a `type: "cel"` hook of 50 rules adds to a decision. Two hosts on the same
 * settings, one with the CEL hook and one without, decide the same calls in alternation; the figure is
 * the difference of their p50 and p99 latencies of `checkToolCall`. No rule holds on the measured calls, so
 * all 50 are evaluated every time (the worst case for a first-match list). Target: under 100 µs at p99.
 * Prints PASS or FAIL; the exit code does not depend on it (timings on a shared machine are not a test).
 * Runs the sources through tsx. `--quick` for a short run; `pnpm bench` prints the same row in its table.
 */
import { pathToFileURL } from "node:url";
import { CelRules } from "@toolgate/cel";
import { createHost, type Host, type HostOptions, type ToolCallInput } from "@toolgate/host";
import { added, percentiles, type PolicyHookFigures, verdictLine } from "./cel-cedar-table.js";

/** Fifty rules in the shapes people write: tool names, prefixes, `has()`, regexes, list macros, numbers. */
function fiftyRules(): { expression: string; action: "block" | "ask" | "allow"; message: string }[] {
  const shapes = [
    (i: number) => `tool == "Tool${i}" && args.command.contains("rm -rf")`,
    (i: number) => `has(args.path) && args.path.startsWith("/etc/${i}")`,
    (i: number) => `tool in ["Write", "Edit", "x${i}"] && args.size() > ${i}`,
    (i: number) => `has(args.command) && args.command.matches("^curl${i}\\\\s")`,
    (i: number) => `has(args.flags) && args.flags.exists(f, f == "--force-${i}")`,
  ];
  return Array.from({ length: 50 }, (_, i) => ({ expression: shapes[i % shapes.length]!(i), action: "block", message: `rule ${i}` }));
}

const base: HostOptions = { pluginsDir: false, configFile: false, logger: false, protectPolicy: "off" };

const calls: ToolCallInput[] = [
  { name: "Bash", args: { command: "git status --short" } },
  { name: "Read", args: { path: "src/index.ts" } },
  { name: "Bash", args: { command: "ls -la", flags: ["-l", "-a"] } },
];

async function latencies(host: Host, runs: number, into: number[]): Promise<void> {
  for (let index = 0; index < runs; index++) {
    const call = calls[index % calls.length]!;
    const started = process.hrtime.bigint();
    const verdict = await host.checkToolCall(call);
    into.push(Number(process.hrtime.bigint() - started) / 1000);
    if (verdict.action !== "allow") throw new Error(`the bench calls must pass every rule: ${JSON.stringify(verdict)}`);
  }
}

/** The evaluation alone, through the package: 50 rules, none true. */
function timeFirstMatch(rules: ReturnType<typeof fiftyRules>, warmup: number, samples: number): number[] {
  const compiled = CelRules.compile(rules.map((rule, index) => ({ ...rule, where: `rules[${index}]` })));
  const context = { tool: "Bash", kind: "shell", args: { command: "git status --short" }, callId: "c1", session: { id: "s" }, cwd: "/p" };
  const evalSamples: number[] = [];
  for (let index = 0; index < warmup + samples; index++) {
    const started = process.hrtime.bigint();
    if (compiled.firstMatch(context) !== undefined) throw new Error("no rule may hold");
    if (index >= warmup) evalSamples.push(Number(process.hrtime.bigint() - started) / 1000);
  }
  return evalSamples;
}

export async function measureCelHook(quick: boolean): Promise<PolicyHookFigures> {
  const samples = quick ? 4_000 : 40_000;
  const warmup = quick ? 1_000 : 5_000;
  const rules = fiftyRules();
  const withCel = await createHost({ ...base, hooks: { pre_tool_call: [{ type: "cel", rules }] } });
  const without = await createHost(base);
  await latencies(withCel, warmup, []);
  await latencies(without, warmup, []);
  const withSamples: number[] = [];
  const withoutSamples: number[] = [];
  // Alternating batches, so drift on a shared machine falls on both alike.
  for (let done = 0; done < samples; done += 500) {
    await latencies(withCel, 500, withSamples);
    await latencies(without, 500, withoutSamples);
  }
  await Promise.all([withCel.close(), without.close()]);
  const label = "cel: 50 rules, none true (all evaluated)";
  return { label, without: percentiles(withoutSamples), with: percentiles(withSamples), alone: percentiles(timeFirstMatch(rules, warmup, samples)) };
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const quick = process.argv.includes("--quick");
  const figures = await measureCelHook(quick);
  const row = (name: string, values: { p50: number; p99: number }) =>
    console.log(`${name.padEnd(44)} p50 ${values.p50.toFixed(1).padStart(7)} µs   p99 ${values.p99.toFixed(1).padStart(7)} µs`);
  console.log(`CEL hook, 50 rules, none true (all evaluated): ${quick ? 4_000 : 40_000} decisions each${quick ? " (--quick)" : ""}`);
  row("checkToolCall without the CEL hook", figures.without);
  row("checkToolCall with the CEL hook", figures.with);
  row("added by the CEL hook", added(figures));
  row("the 50 rules alone (CelRules.firstMatch)", figures.alone);
  console.log(verdictLine("CEL hook", figures));
}
