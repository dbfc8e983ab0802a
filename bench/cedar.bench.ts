/**
 * `pnpm bench:cedar`: what a `type: "cedar"` hook with 50 policies adds to a decision. The same calls
 * go through `checkToolCall` on two hosts, one with the Cedar hook and one without, interleaved call by
 * call so that both see the same machine; each call is timed alone, and the row is the difference of
 * the two hosts' p50 and p99. Cedar's own evaluation (the package's `decide`, no gate) is timed too.
 * Target: under 100 µs added at p99. PASS/FAIL is printed; the exit code does not depend on it.
 * Two rows: the policies as written, which toolgate judges itself on these calls (every policy left
 * after the guards is one it reads whole, so Cedar is not asked), and the same policies scoped
 * `principal is Agent` (true of every call, but a scope toolgate leaves to Cedar), so every call a
 * policy can apply to crosses into Cedar: the cost of a policy toolgate cannot judge.
 * Runs the sources through tsx; `pnpm bench` prints the same row in its table.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { compileCedarPolicies } from "@toolgate/cedar";
import { createHost, type Host, type ToolCallInput } from "@toolgate/host";
import { added, percentiles, type PolicyHookFigures, verdictLine } from "./cel-cedar-table.js";

/** 50 policies of the kinds people write: forbids on commands and paths, permits per tool, `has` guards, sets. */
function policies(principal: string): string {
  const out: string[] = [];
  for (let index = 0; index < 20; index++)
    out.push(
      `@id("no-cmd-${index}")\n@message("command ${index} is not allowed")\nforbid(${principal}, action == Action::"Bash", resource)\n  when { context.args has command && context.args.command like "*forbidden-${index} *" };`,
    );
  for (let index = 0; index < 10; index++)
    out.push(
      `@id("no-path-${index}")\nforbid(${principal}, action in [Action::"Read", Action::"Write", Action::"Edit"], resource)\n  when { context.args has file_path && context.args.file_path like "*secret-${index}/*" };`,
    );
  for (let index = 0; index < 10; index++) out.push(`@id("tool-${index}")\npermit(${principal}, action == Action::"tool_${index}", resource);`);
  for (let index = 0; index < 10; index++)
    out.push(
      `@id("safe-${index}")\npermit(${principal}, action == Action::"Bash", resource)\n  when { context.args has command && ["git status", "ls -la", "pwd", "echo ${index}"].contains(context.args.command) };`,
    );
  return `${out.join("\n\n")}\n`;
}

const calls: ToolCallInput[] = [
  { name: "Bash", args: { command: "git status" }, kind: "shell" },
  { name: "Bash", args: { command: "npm run forbidden-7 now" }, kind: "shell" },
  { name: "Bash", args: { command: "make build" }, kind: "shell" },
  { name: "Read", args: { file_path: "src/index.ts" }, kind: "file_read" },
  { name: "Write", args: { file_path: "config/secret-3/key.pem", content: "x".repeat(200) }, kind: "file_write" },
  { name: "tool_4", args: { query: "weather", limit: 5 } },
];

/** What the policies say of the calls, either way they are scoped: both rows time the same decisions. */
const expectedActions = ["allow", "block", "allow", "allow", "block", "allow"];

async function expectVerdicts(host: Host): Promise<void> {
  const actions = await Promise.all(calls.map(async (call, index) => (await host.checkToolCall({ ...call, id: `v${index}` })).action));
  if (actions.join() !== expectedActions.join()) throw new Error(`the bench's calls were decided ${actions.join()}, not ${expectedActions.join()}`);
}

async function timeCalls(hosts: Record<string, Host>, samples: number): Promise<Record<string, number[]>> {
  const times: Record<string, number[]> = Object.fromEntries(Object.keys(hosts).map((name) => [name, []]));
  for (let index = -samples / 10; index < samples; index++) {
    const call = { ...calls[(index + samples) % calls.length]!, id: `c${index}` };
    for (const [name, host] of Object.entries(hosts)) {
      const started = performance.now();
      await host.checkToolCall(call);
      if (index >= 0) times[name]!.push((performance.now() - started) * 1000);
    }
  }
  return times;
}

function timeDecide(text: string, dir: string, samples: number): number[] {
  const set = compileCedarPolicies({ policies: { text, file: "policies.cedar" } });
  const decideTimes: number[] = [];
  for (let index = -samples / 10; index < samples; index++) {
    const call = calls[(index + samples) % calls.length]!;
    const context = { tool: call.name, kind: call.kind ?? "function", args: call.args, callId: `c${index}`, session: { id: "s" }, cwd: dir };
    const started = performance.now();
    set.decide(context);
    if (index >= 0) decideTimes.push((performance.now() - started) * 1000);
  }
  return decideTimes;
}

/** `cedarAsked`: the policies scoped `principal is Agent`, so that Cedar judges every call a policy can apply to. */
export async function measureCedarHook(quick: boolean, cedarAsked = false): Promise<PolicyHookFigures> {
  const samples = quick ? 2_000 : 20_000;
  const dir = mkdtempSync(join(tmpdir(), "cedar-bench-"));
  try {
    const text = policies(cedarAsked ? "principal is Agent" : "principal");
    writeFileSync(join(dir, "policies.cedar"), text);
    const base = { cwd: dir, logger: false, pluginsDir: false, configFile: false, decisions: { log: false } } as const;
    const plain = await createHost(base);
    const cedar = await createHost({ ...base, hooks: { pre_tool_call: [{ type: "cedar", policies: "policies.cedar" }] } });
    await expectVerdicts(cedar);
    const times = await timeCalls({ plain, cedar }, samples);
    await Promise.all([plain.close(), cedar.close()]);
    const label = `cedar: 50 policies (${calls.length} kinds of call)${cedarAsked ? ", principal is Agent: Cedar asked" : ""}`;
    return { label, without: percentiles(times.plain!), with: percentiles(times.cedar!), alone: percentiles(timeDecide(text, dir, samples)) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function printCedarHook(quick: boolean, cedarAsked: boolean): Promise<void> {
  const figures = await measureCedarHook(quick, cedarAsked);
  const row = (name: string, values: { p50: number; p99: number }) =>
    `${name.padEnd(40)} p50 ${values.p50.toFixed(1).padStart(7)} µs   p99 ${values.p99.toFixed(1).padStart(7)} µs`;
  console.log(`\n${figures.label}, ${quick ? 2_000 : 20_000} calls per host (interleaved)`);
  console.log(row("checkToolCall, no Cedar hook", figures.without));
  console.log(row("checkToolCall, Cedar hook", figures.with));
  console.log(row("Cedar's decide alone (@toolgate/cedar)", figures.alone));
  console.log(row("added by the Cedar hook", added(figures)));
  console.log(verdictLine("Cedar hook", figures));
}

if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const quick = process.argv.includes("--quick");
  for (const cedarAsked of [false, true]) await printCedarHook(quick, cedarAsked);
}
