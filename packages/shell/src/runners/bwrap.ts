import type { Invocation } from "../invocations.js";
import { addArgv, type RunnerReading } from "./reading.js";

/**
 * bubblewrap (0.8.0, `bwrap --help`): options take 0 to 2 words (`--chmod OCTAL PATH`, `--bind SRC DEST`),
 * matched exactly (bwrap does not abbreviate); the command follows them, after an optional `--`, and is read
 * as `env`'s is. Options that read more arguments or a filter from a descriptor (`--args FD`, `--seccomp FD`)
 * make what runs unknown. Its paths are mount points, not writes.
 */
const arities = new Map<string, number>([
  ...each(
    "unshare-all share-net unshare-user unshare-user-try unshare-ipc unshare-pid unshare-net unshare-uts unshare-cgroup unshare-cgroup-try disable-userns assert-userns-disabled clearenv new-session die-with-parent as-pid-1",
    0,
  ),
  ...each(
    "userns userns2 pidns uid gid hostname chdir unsetenv lock-file sync-fd remount-ro exec-label file-label proc dev tmpfs mqueue dir block-fd userns-block-fd info-fd json-status-fd cap-add cap-drop perms size",
    1,
  ),
  ...each("setenv bind bind-try dev-bind dev-bind-try ro-bind ro-bind-try bind-fd ro-bind-fd file bind-data ro-bind-data symlink chmod", 2),
]);

// Read more options, a seccomp filter or data from a descriptor: what runs, or how, is not on the line.
const fromDescriptor = new Set(["args", "seccomp", "add-seccomp-fd"]);

function each(list: string, count: number): [string, number][] {
  return list.split(" ").map((name) => [name, count]);
}

export function readBwrap(invocation: Invocation, reading: RunnerReading): void {
  const { args } = invocation;
  let index = 0;
  while (index < args.length) {
    const arg = args[index]!;
    if (arg === "--") {
      index++;
      break;
    }
    if (arg === "--help" || arg === "--version") return;
    if (!arg.startsWith("--")) break;
    const name = arg.slice(2);
    if (fromDescriptor.has(name)) {
      reading.problems.push(`bwrap ${arg} reads more from a file descriptor, so what bwrap runs is unknown`);
      return;
    }
    const count = arities.get(name);
    if (count === undefined) {
      reading.problems.push(`bwrap: the option ${arg} is not one this reader has read, so what bwrap does with it is unknown`);
      return;
    }
    if (index + count >= args.length) {
      reading.problems.push(`bwrap: the option ${arg} needs ${count} value${count === 1 ? "" : "s"}`);
      return;
    }
    index += 1 + count;
  }
  const command = args.slice(index);
  // bwrap with no command is an error; with one, the command runs inside the sandbox.
  if (command.length > 0) addArgv(reading, invocation, command, "bwrap");
}
