/**
 * `toolgate serve` under an open-loop load: requests are sent on a fixed schedule (1,000 per second by
 * default), whether or not earlier ones have been answered, over a keep-alive client, and each request's
 * latency is taken from the moment it was due to the moment its answer arrived (so a server that falls
 * behind pays for the queue, as a real agent would). The server is the built CLI (the published bin,
 * packages/toolgate/dist/cli/main.cjs) in its own process, as users run it. The rows are measured in
 * one-second slices, taken in turn, so load from other processes hits them alike.
 *
 *   pnpm bench:serve (builds, then runs)   tsx bench/serve.bench.ts [--rate 1000] [--seconds 5] [--quick]
 *
 * Target (issue 9): p99 ≤ 1 ms per decision at 1,000 decisions/s, judged on the `sent` figures (from
 * when a request was written to when its answer arrived). The figures from when a request was due also
 * hold this client's own lateness: its timers fire with millisecond resolution, so even the bare
 * server's p50 from due is about 1 ms on an idle machine, whatever the server does. A server that falls
 * behind still shows in `sent`: the requests keep going out on schedule and queue at the server.
 * It prints PASS or FAIL and never changes the exit code: a benchmark reports.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { Agent, request } from "node:http";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { formatMs, markdownTable } from "./table.js";

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "..");
const argument = (name: string, fallback: number) => {
  const index = process.argv.indexOf(`--${name}`);
  return index === -1 ? fallback : Number(process.argv[index + 1]);
};
const quick = process.argv.includes("--quick");
const rate = argument("rate", 1000);
const seconds = argument("seconds", quick ? 1 : 5);
const warmupSeconds = quick ? 0.5 : 2;
const targetP99Ms = 1;

const policy = `
export default {
  name: "bench-policy",
  hooks: {
    pre_tool_call(call) {
      const command = String(call.args.command ?? "");
      if (call.kind === "shell" && /rm\\s+-rf/.test(command)) return { action: "block", message: "recursive deletes are off limits" };
      if (command === "fix") return { action: "modify", args: { command: "ls -la" } };
    },
  },
};
`;

interface Scenario {
  name: string;
  path: string;
  body: string;
  /** The answer must say this, or the figures are of the wrong thing. */
  expect: string;
}

const claudeInput = (command: string) =>
  JSON.stringify({
    session_id: "bench",
    transcript_path: "",
    cwd: "/",
    hook_event_name: "PreToolUse",
    tool_name: "Bash",
    tool_input: { command },
    tool_use_id: "toolu_bench",
  });

const scenarios: Scenario[] = [
  {
    name: "/v1/check allow",
    path: "/v1/check",
    body: JSON.stringify({ call: { id: "1", name: "Bash", args: { command: "ls" }, kind: "shell" } }),
    expect: '"action":"allow"',
  },
  {
    name: "/v1/check block",
    path: "/v1/check",
    body: JSON.stringify({ call: { id: "1", name: "Bash", args: { command: "rm -rf /" }, kind: "shell" } }),
    expect: '"action":"block"',
  },
  { name: "/v1/hooks/claude-code deny", path: "/v1/hooks/claude-code", body: claudeInput("rm -rf /"), expect: '"permissionDecision":"deny"' },
  { name: "/v1/hooks/claude-code rewrite", path: "/v1/hooks/claude-code", body: claudeInput("fix"), expect: '"updatedInput"' },
];

/** The floor: a bare node:http server in its own process answering every POST with a fixed verdict. */
const bareServer = `
const { createServer } = require("node:http");
const answer = JSON.stringify({ verdict: { action: "allow", args: { command: "ls" } } });
const server = createServer((request, response) => {
  let body = "";
  request.on("data", (chunk) => (body += chunk));
  request.on("end", () => { JSON.parse(body); response.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(answer) }); response.end(answer); });
});
server.listen(0, "127.0.0.1", () => console.log("listening on http://127.0.0.1:" + server.address().port));
`;

async function startServer(args: readonly string[]): Promise<{ url: string; stop: () => void }> {
  const child = spawn(process.execPath, args, { stdio: ["ignore", "pipe", "inherit"] });
  let output = "";
  const url = await new Promise<string>((resolve, reject) => {
    child.stdout.on("data", (chunk: Buffer) => {
      output += chunk.toString();
      const found = /listening on (\S+)/.exec(output)?.[1];
      if (found) resolve(found);
    });
    child.once("exit", (code) => reject(new Error(`toolgate serve exited with ${code}`)));
  });
  // An interrupted run must not leave the server behind.
  process.once("exit", () => child.kill("SIGTERM"));
  return { url, stop: () => child.kill("SIGTERM") };
}

const agent = new Agent({ keepAlive: true, maxSockets: 64 });

/** The answer, and the server's own time for it from its `Server-Timing` header (NaN when absent). */
function send(url: URL, scenario: Scenario): Promise<{ body: string; serverMs: number }> {
  return new Promise((resolve, reject) => {
    const outgoing = request(
      url,
      { method: "POST", agent, headers: { "content-type": "application/json", "content-length": Buffer.byteLength(scenario.body) } },
      (response) => {
        let body = "";
        const serverMs = Number(/dur=([\d.]+)/.exec(String(response.headers["server-timing"] ?? ""))?.[1] ?? Number.NaN);
        response.setEncoding("utf8");
        response.on("data", (chunk: string) => (body += chunk));
        response.on("end", () => resolve({ body, serverMs }));
      },
    );
    outgoing.on("error", reject);
    outgoing.end(scenario.body);
  });
}

/**
 * Open loop: request i is due at start + i / rate. `fromDue` runs from when it was due (it includes the
 * client's timer lateness and any queue); `fromSend` from when it was actually sent.
 */
async function openLoop(base: string, scenario: Scenario, durationSeconds: number): Promise<{ fromDue: number[]; fromSend: number[]; inServer: number[] }> {
  const url = new URL(scenario.path, base);
  const total = Math.round(rate * durationSeconds);
  const fromDue: number[] = [];
  const fromSend: number[] = [];
  const inServer: number[] = [];
  const pending: Promise<void>[] = [];
  const start = performance.now();
  let next = 0;
  await new Promise<void>((done) => {
    const tick = () => {
      const now = performance.now();
      while (next < total && start + (next * 1000) / rate <= now) {
        const due = start + (next * 1000) / rate;
        next++;
        const sent = performance.now();
        pending.push(
          send(url, scenario).then(({ body, serverMs }) => {
            if (!body.includes(scenario.expect)) throw new Error(`${scenario.name}: unexpected answer ${body}`);
            const answered = performance.now();
            fromDue.push(answered - due);
            fromSend.push(answered - sent);
            if (!Number.isNaN(serverMs)) inServer.push(serverMs);
          }),
        );
      }
      if (next < total) setTimeout(tick, Math.max(0, start + (next * 1000) / rate - performance.now()));
      else done();
    };
    tick();
  });
  await Promise.all(pending);
  const sorted = (values: number[]) => values.sort((a, b) => a - b);
  return { fromDue: sorted(fromDue), fromSend: sorted(fromSend), inServer: sorted(inServer) };
}

function serverColumns(inServer: readonly number[]): string[] {
  return inServer.length === 0 ? ["-", "-"] : [formatMs(percentile(inServer, 50)), formatMs(percentile(inServer, 99))];
}

function percentile(sorted: readonly number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

const builtCli = join(repoRoot, "packages/toolgate/dist/cli/main.cjs");
if (!existsSync(builtCli)) throw new Error(`${builtCli} does not exist; build the host first (pnpm --filter @toolgate/host run build)`);
const project = mkdtempSync(join(tmpdir(), "toolgate-serve-bench-"));
mkdirSync(join(project, "plugins"));
writeFileSync(join(project, "plugins/policy.mjs"), policy);
const toolgate = await startServer([builtCli, "serve", "--port", "0", "--cwd", project]);
const bare = await startServer(["-e", bareServer]);
const bareScenario: Scenario = { name: "bare node:http (floor)", path: "/", body: scenarios[0]!.body, expect: '"action":"allow"' };
const lineup = [[bare.url, bareScenario] as const, ...scenarios.map((scenario) => [toolgate.url, scenario] as const)];

/** Every row for `totalSeconds`, in one-second slices taken in turn (the order rotating each slice). */
async function interleaved(totalSeconds: number): Promise<Awaited<ReturnType<typeof openLoop>>[]> {
  const results = lineup.map(() => ({ fromDue: [] as number[], fromSend: [] as number[], inServer: [] as number[] }));
  for (let slice = 0; slice < totalSeconds; slice++) {
    for (let step = 0; step < lineup.length; step++) {
      const index = (step + slice) % lineup.length;
      const [base, scenario] = lineup[index]!;
      const { fromDue, fromSend, inServer } = await openLoop(base, scenario, Math.min(1, totalSeconds - slice));
      results[index]!.fromDue.push(...fromDue);
      results[index]!.fromSend.push(...fromSend);
      results[index]!.inServer.push(...inServer);
    }
  }
  const sorted = (values: number[]) => values.sort((a, b) => a - b);
  return results.map(({ fromDue, fromSend, inServer }) => ({ fromDue: sorted(fromDue), fromSend: sorted(fromSend), inServer: sorted(inServer) }));
}

try {
  const rows: string[][] = [];
  let worstP99 = 0;
  await interleaved(warmupSeconds);
  const measured = await interleaved(seconds);
  for (const [index, [, scenario]] of lineup.entries()) {
    const { fromDue, fromSend, inServer } = measured[index]!;
    if (scenario !== bareScenario) worstP99 = Math.max(worstP99, percentile(fromSend, 99));
    rows.push([
      scenario.name,
      String(fromDue.length),
      ...[50, 90, 99].map((p) => formatMs(percentile(fromDue, p))),
      formatMs(fromDue.at(-1)!),
      formatMs(percentile(fromSend, 50)),
      formatMs(percentile(fromSend, 99)),
      ...serverColumns(inServer),
    ]);
  }
  console.log(
    `toolgate serve, open loop at ${rate} decisions/s for ${seconds} s per row in interleaved 1 s slices (after ${warmupSeconds} s warm-up), keep-alive client, ${cpus().length} CPUs, Node ${process.version}, load average ${loadavg()
      .map((value) => value.toFixed(1))
      .join(" ")}`,
  );
  console.log("latency in ms; p50/p90/p99/max from when each request was due, `sent` from when it was sent, `server` the server's own time (Server-Timing)\n");
  console.log(
    markdownTable(["decision", "requests", "p50", "p90", "p99", "max", "sent p50", "sent p99", "server p50", "server p99"], rows, (column) => column > 0),
  );
  console.log(
    `\ntarget p99 ≤ ${targetP99Ms} ms: ${worstP99 <= targetP99Ms ? "PASS" : "FAIL"} (worst toolgate p99 from sent ${formatMs(worstP99)} ms; the bare server's row is this machine's floor)`,
  );
} finally {
  toolgate.stop();
  bare.stop();
  agent.destroy();
  rmSync(project, { recursive: true, force: true });
}
