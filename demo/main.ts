import { readFile } from "node:fs/promises";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { createHost } from "@toolgate/host";
import { createFakeModel } from "./fake-model.js";
import { runSession } from "./run-session.js";
import { noCode, readOnly, tidyUp, type Act } from "./scenario.js";
import { createSandbox, createSandboxTools } from "./tools.js";
import { createJsonTranscript, createTally, createTextTranscript } from "./transcript.js";

// `pnpm demo` (add `--json` for JSON lines): a scripted agent session through the toolgate host.
const demoDir = dirname(fileURLToPath(import.meta.url));
const repoRoot = dirname(demoDir);
const acts: [Act, string][] = [
  [tidyUp, join(demoDir, "toolgate.config.ts")],
  [readOnly, join(demoDir, "read-only.config.ts")],
  [noCode, join(demoDir, "no-code.config.yaml")],
];
const auditFile = ".toolgate/audit.jsonl";

// `pnpm demo | head` closes stdout early: stop printing, but still finish and delete the project folder.
let stdoutClosed = false;
process.stdout.on("error", (error: NodeJS.ErrnoException) => {
  if (error.code !== "EPIPE") throw error;
  stdoutClosed = true;
});
const print = (line: string) => stdoutClosed || process.stdout.write(`${line}\n`);
const useColor = process.stdout.isTTY === true && !("NO_COLOR" in process.env);
const transcript = createTally(process.argv.includes("--json") ? createJsonTranscript(print) : createTextTranscript(print, useColor));
const sandbox = await createSandbox();

try {
  const tools = createSandboxTools(sandbox.root);
  for (const [index, [act, configFile]] of acts.entries()) {
    // One host per act, as an app would have after the operator changes its config; each starts a fresh session.
    const host = await createHost({ cwd: sandbox.root, configFile, tools, session: { id: `demo-act-${index + 1}` } });
    try {
      const plugins = host.plugins.map(({ name, version, status, error }) => ({ name, status, ...(version && { version }), ...(error && { error }) }));
      transcript.write({ type: "act", title: act.title, premise: act.premise, config: relative(repoRoot, configFile), plugins });
      await runSession({ host, model: createFakeModel(act.plan), tools, request: act.request, transcript });
    } finally {
      await host.close();
    }
  }
  const audit = await readAudit(join(sandbox.root, auditFile));
  transcript.write({ type: "summary", summary: { ...transcript.totals(), auditFile: `${auditFile} (in the project folder)`, ...audit } });
} finally {
  await sandbox.remove();
}

/** How many lines audit-log wrote, and its record of the first block as an example. */
async function readAudit(path: string): Promise<{ auditLines: number; auditExample?: string }> {
  const lines = (await readFile(path, "utf8").catch(() => "")).split("\n").filter((line) => line.trim() !== "");
  const block = lines.map((line) => JSON.parse(line) as Record<string, unknown>).find((entry) => entry.action === "block");
  if (!block) return { auditLines: lines.length };
  const { time: _time, ...stable } = block;
  return { auditLines: lines.length, auditExample: JSON.stringify(stable) };
}
