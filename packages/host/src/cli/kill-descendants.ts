import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";

/**
 * Kills every process this one started, and theirs, with SIGKILL; returns how many it signalled.
 *
 * A plugin's `execSync` holds its thread until the child ends, and the child's own children (a
 * grandchild that keeps the pipe open) hold it too; `process.exit` waits for that thread. So the whole
 * tree goes, found from this process downwards. Each process is stopped (SIGSTOP) before its children are
 * read, so none can start another behind the walk, then all are killed. Never the process group: the agent
 * that started the hook may share it. A process that left the tree (a double fork, reparented to init) is
 * out of reach. Not on Windows, where a child's tree is not this process's to walk.
 */
export function killDescendants(): number {
  if (process.platform === "win32") return 0;
  const childrenOf = process.platform === "linux" && canReadProcChildren() ? procChildren : psChildren();
  const found: number[] = [];
  const pending = childrenOf(process.pid);
  while (pending.length > 0) {
    const pid = pending.pop()!;
    if (found.includes(pid) || !signal(pid, "SIGSTOP")) continue;
    found.push(pid);
    pending.push(...childrenOf(pid));
  }
  for (const pid of found) signal(pid, "SIGKILL");
  return found.length;
}

function signal(pid: number, name: NodeJS.Signals): boolean {
  try {
    process.kill(pid, name);
    return true;
  } catch {
    // Gone already, or not ours to signal.
    return false;
  }
}

function canReadProcChildren(): boolean {
  try {
    readFileSync(`/proc/self/task/${process.pid}/children`, "utf8");
    return true;
  } catch {
    return false;
  }
}

/** Linux: each thread's `children` file (CONFIG_PROC_CHILDREN) lists the processes it started. */
function procChildren(pid: number): number[] {
  let threads: string[];
  try {
    threads = readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  return threads.flatMap((thread) => {
    try {
      return pidsIn(readFileSync(`/proc/${pid}/task/${thread}/children`, "utf8"));
    } catch {
      return [];
    }
  });
}

/** Elsewhere (macOS, the BSDs): one `ps` listing of every process and its parent, read once. */
function psChildren(): (pid: number) => number[] {
  const byParent = new Map<number, number[]>();
  try {
    const listing = execFileSync("ps", ["-A", "-o", "pid=,ppid="], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"], timeout: 2000 });
    for (const line of listing.split("\n")) {
      const [pid, parent] = pidsIn(line);
      if (pid === undefined || parent === undefined) continue;
      byParent.set(parent, [...(byParent.get(parent) ?? []), pid]);
    }
  } catch {
    // No ps: nothing found, nothing killed.
  }
  return (pid) => byParent.get(pid) ?? [];
}

function pidsIn(text: string): number[] {
  return text
    .trim()
    .split(/\s+/)
    .filter((word) => /^\d+$/.test(word))
    .map(Number);
}
