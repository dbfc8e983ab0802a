// One process, one host: creates a host on the given store, makes the calls at once, prints a JSON report.
import { createHost } from "@toolgate/host";
import budget from "../../../../plugins/budget/src/index.js";
import rateLimit from "../../../../plugins/rate-limit/src/index.js";
import type { WorkerReport, WorkerTask } from "./host-process.js";

const task = JSON.parse(process.argv[2]!) as WorkerTask;
const plugin = task.plugin === "budget" ? budget : rateLimit;
const host = await createHost({
  cwd: process.cwd(),
  configFile: false,
  pluginsDir: false,
  logger: false,
  store: task.store,
  session: task.session ?? { id: "shared-session" },
  plugins: [[plugin, task.options]],
  tools: { work: { execute: () => "done" } },
});
if (task.startAt !== undefined) await new Promise((resolve) => setTimeout(resolve, Math.max(0, task.startAt! - Date.now())));
const results = await Promise.all(Array.from({ length: task.calls }, (_, n) => host.callTool({ id: `${task.idPrefix}-${n}`, name: "work", args: {} })));
await host.close();
const report: WorkerReport = { ok: 0, blocked: 0, error: 0, messages: [] };
for (const result of results) {
  report[result.status]++;
  if (result.status !== "ok" && !report.messages.includes(result.content)) report.messages.push(result.content);
}
process.stdout.write(JSON.stringify(report));
