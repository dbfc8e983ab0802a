import type { ChildProcess } from "node:child_process";

export interface ChildOutput {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** What a child process (spawned with piped stdout and stderr) printed, once it has closed; rejects when it cannot start. */
export function outputOf(child: ChildProcess): Promise<ChildOutput> {
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}
