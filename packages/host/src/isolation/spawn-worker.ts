import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { Worker } from "node:worker_threads";
import type { WorkerBoot } from "./protocol.js";

// Next to this file: worker-entry.js in the published build, worker-entry.cjs next to the bundled CLI,
// worker-entry.ts when the host runs from source.
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
  if (/\.c?js$/.test(entryUrl.pathname)) return new Worker(entryUrl, { workerData: boot });
  const jitiPath = createRequire(import.meta.url).resolve("jiti");
  return new Worker(bootstrap, { eval: true, workerData: { ...boot, jitiPath, entryPath: fileURLToPath(entryUrl) } });
}
