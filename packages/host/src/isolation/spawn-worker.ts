import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type { WorkerBoot } from "./protocol.js";

// Next to this file: worker-entry.js in the published build, worker-entry.ts when the host runs from source.
const entryUrl = new URL(`./worker-entry${import.meta.url.slice(import.meta.url.lastIndexOf("."))}`, import.meta.url);

/**
 * From source (tests, tsx), Node cannot run the TypeScript entry itself, so a small CommonJS script loads
 * it through jiti, the loader the host already uses for plugins. The built entry runs natively.
 */
const bootstrap = `
const { workerData } = require("node:worker_threads");
const { createJiti } = require(workerData.jitiPath);
createJiti(workerData.entryPath).import(workerData.entryPath);
`;

/** Starts a worker thread that loads the plugin in `boot` (see worker-entry.ts). */
export function spawnWorker(boot: WorkerBoot): Worker {
  const worker = entryUrl.pathname.endsWith(".js") ? new Worker(entryUrl, { workerData: boot, stdout: true }) : spawnFromSource(boot);
  // What plugin code prints goes where the host's logs go: stdout may carry a protocol (hook, mcp-proxy).
  worker.stdout.pipe(process.stderr, { end: false });
  return worker;
}

function spawnFromSource(boot: WorkerBoot): Worker {
  const jitiPath = createRequire(import.meta.url).resolve("jiti");
  return new Worker(bootstrap, { eval: true, stdout: true, workerData: { ...boot, jitiPath, entryPath: fileURLToPath(entryUrl) } });
}
