import { spawn } from "node:child_process";
import { join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const repoRoot = resolve(fileURLToPath(import.meta.url), "../../../..");
const tsxLoader = pathToFileURL(join(repoRoot, "node_modules/tsx/dist/loader.mjs")).href;
const workerPath = join(repoRoot, "test/store/helpers/host-worker.ts");

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
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, ["--import", tsxLoader, workerPath, JSON.stringify(task)], { cwd });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => {
      if (code !== 0) reject(new Error(`host worker exited with ${code}: ${stderr}`));
      else resolvePromise(JSON.parse(stdout) as WorkerReport);
    });
  });
}
