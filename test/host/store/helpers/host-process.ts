import { spawn } from "node:child_process";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { outputOf } from "../../../helpers/child-output.js";

const repoRoot = resolve(fileURLToPath(import.meta.url), "../../../../..");
const tsxLoader = pathToFileURL(join(repoRoot, "node_modules/tsx/dist/loader.mjs")).href;
const workerPath = join(repoRoot, "test/host/store/helpers/host-worker.ts");

/** What one worker process is asked to do: create a host on `store`, and make `calls` calls at once. */
export interface WorkerTask {
  store: string;
  plugin: "rate-limit" | "budget";
  options: Record<string, unknown>;
  calls: number;
  /** Call ids are `<idPrefix>-<n>`. */
  idPrefix: string;
  /** Wall-clock time to start calling at, so several processes call at the same moment. */
  startAt?: number;
  session?: { id: string; user?: string };
}

export interface WorkerReport {
  ok: number;
  blocked: number;
  error: number;
  messages: string[];
}

/** Runs one worker in its own `node` process, as one `toolgate hook` invocation would be. */
export function runHostProcess(task: WorkerTask, cwd: string): Promise<WorkerReport> {
  return outputOf(spawn(process.execPath, ["--import", tsxLoader, workerPath, JSON.stringify(task)], { cwd })).then(({ code, stdout, stderr }) => {
    if (code !== 0) throw new Error(`host worker exited with ${code}: ${stderr}`);
    return JSON.parse(stdout) as WorkerReport;
  });
}
