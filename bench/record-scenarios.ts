import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createHost, type Host, type Plugin, type ToolCall } from "@toolgate/host";
import type { Contender } from "./baselines.js";
import { hookSet } from "./hook-functions.js";
import type { Comparison } from "./measure.js";
import type { Protection } from "./toolgate-contender.js";

/** `pnpm bench`'s record rows: the same plugins with a decisions log and without one. */
export interface RecordScenario {
  plugins: number;
  /** "path": awaited decisions back to back (records built in the loop, the writes wait for the event loop); "turn": one decision per event-loop turn, the writes included. */
  mode: "path" | "turn";
  protection: Protection;
  comparison: Comparison;
}

export interface RecordBench {
  scenarios: RecordScenario[];
  close(): Promise<void>;
}

const call: ToolCall = { id: "call-1", name: "noop", args: { path: "README.md", recursive: false } };

async function benchHost(plugins: Plugin[], log: string | false, protection: Protection): Promise<Host> {
  const protectPolicy = protection === "off" ? ("off" as const) : ("block" as const);
  return createHost({
    plugins,
    pluginsDir: false,
    configFile: false,
    logger: false,
    protectPolicy,
    tools: { noop: { execute: () => "done" } },
    decisions: { log },
  });
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

function contender(name: string, host: Host, mode: RecordScenario["mode"]): Contender {
  const run = mode === "path" ? (toolCall: ToolCall) => host.checkToolCall(toolCall) : (toolCall: ToolCall) => host.checkToolCall(toolCall).then(nextTurn);
  return { name, run, blocked: () => false };
}

/**
 * At 0 and 10 sync plugins that let the call pass: `checkToolCall` with `decisions.log` set (one record
 * per decision, appended to a file in a temporary folder) next to the same host without a log; with the
 * protection off (the gate alone: the targets) and on (figures).
 */
export async function createRecordBench(): Promise<RecordBench> {
  const folder = mkdtempSync(join(tmpdir(), "toolgate-bench-records-"));
  const hosts: Host[] = [];
  const scenarios: RecordScenario[] = [];
  for (const protection of ["off", "on"] as const) {
    for (const plugins of [0, 10]) {
      const set = hookSet(plugins, "sync", "pass");
      const recording = await benchHost(set.plugins(), join(folder, `decisions-${protection}-${plugins}.jsonl`), protection);
      const plain = await benchHost(set.plugins(), false, protection);
      hosts.push(recording, plain);
      for (const mode of ["path", "turn"] as const) {
        const comparison = { toolgate: contender("record", recording, mode), baselines: [contender("no record", plain, mode)], call };
        scenarios.push({ plugins, mode, protection, comparison });
      }
    }
  }
  return {
    scenarios,
    async close() {
      await Promise.all(hosts.map((host) => host.close()));
      await nextTurn();
      rmSync(folder, { recursive: true, force: true });
    },
  };
}
