/**
 * `pnpm bench:mcp-proxy` (after building the packages): what `toolgate mcp-proxy` adds to one tools/call.
 * The same small stdio MCP server (test/toolgate/mcp-proxy/fixtures/echo-server.mjs, a trivial echo tool) is called
 * directly, through a relay that only copies bytes (bench/byte-relay.cjs: what any process in between
 * costs on this machine), and through the built proxy, with no plugin and with one pass-through plugin. Calls are
 * sequential and alternate between the connections, so drift hits all of them alike; each call is
 * timed on its own, and p50/p99 are read from those times. Target: ≤ 0.3 ms added at p99.
 *
 * Options: `--quick` (fewer calls); `--baseline <main.cjs>` adds the same two proxy lineups run from
 * another build (a copy of dist/ from before a change), so before and after are measured in one
 * interleaved run; `--cpu-prof <dir>` writes a CPU profile of each proxy process into <dir>.
 */
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { formatMs, markdownTable } from "./table.js";

const repoRoot = resolve(fileURLToPath(import.meta.url), "../..");
const echoServer = join(repoRoot, "test/toolgate/mcp-proxy/fixtures/echo-server.mjs");
const builtCli = join(repoRoot, "packages/toolgate/dist/cli/main.cjs");
const byteRelay = join(repoRoot, "bench/byte-relay.cjs");
// The built CLI resolves @toolgate/plugin-sdk through publishConfig, as an installed copy would.
const publishedExports = pathToFileURL(join(repoRoot, "bench/published-exports.mjs")).href;
const registerPublished = `data:text/javascript,import{register}from"node:module";register(${JSON.stringify(publishedExports)})`;

const passPlugin = `export default { name: "pass", hooks: { pre_tool_call(call) { if (call.args.text === "never") return { action: "block", message: "never" }; } } };`;

interface Lineup {
  name: string;
  client: Client;
  /** The process the client talks to: the server itself, or the proxy (not counting its upstream). */
  pid: number | null;
  /** Per-call times in ms. */
  times: number[];
}

async function connect(name: string, command: string, args: string[]): Promise<Lineup> {
  const client = new Client({ name: "bench", version: "1.0.0" });
  const transport = new StdioClientTransport({ command, args, stderr: "inherit" });
  await client.connect(transport);
  return { name, client, pid: transport.pid, times: [] };
}

/**
 * CPU time (user + system) a process has used, in ms, from /proc (Linux; undefined elsewhere). Unlike
 * latency it hardly moves when other processes load the machine. Assumes 100 clock ticks per second.
 */
function cpuMs(pid: number | null): number | undefined {
  if (pid === null) return undefined;
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

function proxyArgs(cli: string, cwd: string, nodeFlags: readonly string[]): string[] {
  return [...nodeFlags, "--import", registerPublished, cli, "mcp-proxy", "--cwd", cwd, "--", process.execPath, echoServer];
}

function optionValue(name: string): string | undefined {
  const index = process.argv.indexOf(name);
  return index === -1 ? undefined : process.argv[index + 1];
}

async function timeCall(lineup: Lineup, record: boolean): Promise<void> {
  const started = performance.now();
  const result = await lineup.client.callTool({ name: "echo", arguments: { text: "bench" } });
  const elapsed = performance.now() - started;
  if (result.isError) throw new Error(`${lineup.name}: the echo call failed: ${JSON.stringify(result)}`);
  if (record) lineup.times.push(elapsed);
}

function percentile(sorted: readonly number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil(fraction * sorted.length) - 1)]!;
}

async function main(): Promise<void> {
  if (!existsSync(builtCli)) throw new Error(`${builtCli} does not exist; build the packages first (pnpm build)`);
  const quick = process.argv.includes("--quick");
  const baseline = optionValue("--baseline");
  if (baseline !== undefined && !existsSync(baseline)) throw new Error(`--baseline ${baseline} does not exist`);
  const profileDir = optionValue("--cpu-prof");
  const nodeFlags = profileDir === undefined ? [] : ["--cpu-prof", `--cpu-prof-dir=${resolve(profileDir)}`];
  const [warmup, calls] = quick ? [200, 1000] : [1000, 10000];
  const base = join(tmpdir(), "toolgate-bench");
  mkdirSync(base, { recursive: true });
  const empty = mkdtempSync(join(base, "empty-"));
  const withPlugin = mkdtempSync(join(base, "plugin-"));
  mkdirSync(join(withPlugin, "plugins"));
  writeFileSync(join(withPlugin, "plugins/pass.mjs"), passPlugin);

  const lineups = [
    await connect("direct (no proxy)", process.execPath, [echoServer]),
    await connect("byte relay (floor)", process.execPath, [byteRelay, "--", process.execPath, echoServer]),
    await connect("mcp-proxy, no plugin", process.execPath, proxyArgs(builtCli, empty, nodeFlags)),
    await connect("mcp-proxy, 1 plugin", process.execPath, proxyArgs(builtCli, withPlugin, nodeFlags)),
  ];
  if (baseline !== undefined) {
    lineups.push(
      await connect("baseline mcp-proxy, no plugin", process.execPath, proxyArgs(baseline, empty, nodeFlags)),
      await connect("baseline mcp-proxy, 1 plugin", process.execPath, proxyArgs(baseline, withPlugin, nodeFlags)),
    );
  }
  const cpu: (number | undefined)[] = [];
  try {
    for (let round = 0; round < warmup + calls; round++) {
      if (round === warmup) cpu.push(...lineups.map(({ pid }) => cpuMs(pid)));
      for (let step = 0; step < lineups.length; step++) await timeCall(lineups[(step + round) % lineups.length]!, round >= warmup);
    }
    lineups.forEach(({ pid }, index) => {
      const before = cpu[index];
      const after = cpuMs(pid);
      cpu[index] = before === undefined || after === undefined ? undefined : ((after - before) * 1000) / calls;
    });
  } finally {
    await Promise.all(lineups.map(({ client }) => client.close()));
    rmSync(empty, { recursive: true, force: true });
    rmSync(withPlugin, { recursive: true, force: true });
  }
  printTable(lineups, cpu, calls);
}

function printTable(lineups: readonly Lineup[], cpuUsPerCall: readonly (number | undefined)[], calls: number): void {
  const stats = lineups.map(({ name, times }) => {
    const sorted = [...times].sort((a, b) => a - b);
    return { name, p50: percentile(sorted, 0.5), p99: percentile(sorted, 0.99) };
  });
  const direct = stats[0]!;
  const rows = stats.map(({ name, p50, p99 }, index) => [
    name,
    formatMs(p50),
    formatMs(p99),
    index === 0 ? "" : formatMs(p50 - direct.p50),
    index === 0 ? "" : formatMs(p99 - direct.p99),
    cpuUsPerCall[index] === undefined ? "n/a" : cpuUsPerCall[index]!.toFixed(0),
  ]);
  const floor = stats[1]!;
  const proxies = stats.filter(({ name }) => name.startsWith("mcp-proxy"));
  const overFloor = Math.max(...proxies.map(({ p99 }) => p99 - floor.p99));
  console.log(`\ntools/call latency, ${calls} sequential calls per connection (ms; target: ≤ 0.30 ms added at p99)\n`);
  console.log(markdownTable(["connection", "p50", "p99", "added p50", "added p99", "CPU µs/call"], rows, (column) => column > 0));
  console.log("\nCPU µs/call: the process the client talks to (the echo server directly, or the relay or proxy without its upstream).");
  console.log(
    `The byte relay's own added p99 (${formatMs(floor.p99 - direct.p99)} ms) is what a process in between costs here; ` +
      `toolgate mcp-proxy's p99 is ${formatMs(overFloor)} ms above it (worst row).`,
  );
  console.log(
    `load average while measuring: ${loadavg()
      .map((load) => load.toFixed(1))
      .join(" ")} on ${availableParallelism()} cores`,
  );
}

await main();
