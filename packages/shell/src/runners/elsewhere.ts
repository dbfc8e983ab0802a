import { posix } from "node:path";
import type { Invocation } from "../invocations.js";
import { stdinTexts } from "../static-text.js";
import { letters, names, readArguments, type Grammar, type OptionSpec, type ReadArguments, type ReadOption } from "./options.js";
import { addCode, addUnread, commandLine, type RunnerReading } from "./reading.js";

/**
 * Commands run in another place: on a remote host (`ssh host cmd`), in a container (`docker run`,
 * `docker exec`, `kubectl exec`). What they run is read as a command here: a remote home or a container
 * that mounts the host's folders is as much worth guarding as this one, and `ssh localhost` is this one.
 * Where the other place's paths reach this host's (a bind mount), they are read as the host's paths.
 */
type Reader = (invocation: Invocation, reading: RunnerReading) => void;

/**
 * ssh's remote command: the words after the host (and the options that may follow it), joined by spaces,
 * run by the remote user's shell in their home folder (read as bash, after `cd`), with ssh's input as
 * its own. With no command, the remote shell reads its commands on ssh's input: read when the line gives it.
 */
export function readRemoteCommand(invocation: Invocation, options: readonly ReadOption[], words: readonly string[], reading: RunnerReading): void {
  if (options.some((option) => option.name === "-N" || option.name === "-s" || option.name === "-W")) return;
  const noInput = options.some((option) => option.name === "-n");
  if (words.length > 0)
    for (const code of noInput ? [`cd; ${words.join(" ")}`] : withLineInput(invocation, `cd; ${words.join(" ")}`))
      addCode(reading, code, "ssh's remote command");
  else if (!noInput) for (const code of remoteShellInput(invocation)) addCode(reading, code, "ssh's remote shell");
}

/** The login shell reading its commands on input: from a file (`< f`, `cat f |`), read as `sh < file` is here. */
function remoteShellInput(invocation: Invocation): string[] {
  const file = inputFile(invocation) ?? catFile(invocation);
  return file === undefined ? withLineInput(invocation, "cd; sh") : [`cd; sh < ${commandLine([file])}`];
}

/** The one file `cat file |` sends, as an absolute path. */
function catFile(invocation: Invocation): string | undefined {
  const upstream = invocation.upstream.findLast((candidate) => candidate.via.length === invocation.via.length);
  if (upstream?.name !== "cat" || upstream.args.length !== 1 || upstream.args[0]!.startsWith("-")) return undefined;
  return absolute(upstream.args[0]!, upstream.cwd);
}

function inputFile(invocation: Invocation): string | undefined {
  const file = invocation.redirects.findLast((redirect) => redirect.operator === "<")?.target.text;
  return file === undefined ? undefined : absolute(file, invocation.cwd);
}

/**
 * A command given the input the line sends it: each known text as a here-document; else, as this
 * line spells it, the file it reads (`< s.sh`, which the line may have written) or the command piped
 * in (`curl … |`, `cat s.sh |`), handed to a shell running the command, so that input is judged as it
 * is for a local shell's.
 */
function withLineInput(invocation: Invocation, code: string): string[] {
  const texts = stdinTexts(invocation);
  if (texts.length > 0) return withInput(code, texts);
  const file = inputFile(invocation);
  if (file !== undefined) return [`sh -c ${commandLine([code])} < ${commandLine([file])}`];
  const upstream = invocation.upstream.findLast((candidate) => candidate.via.length === invocation.via.length);
  if (upstream !== undefined) return [`${commandLine([upstream.name, ...upstream.args])} | sh -c ${commandLine([code])}`];
  return [code];
}

function absolute(path: string, cwd: string | undefined): string {
  if (path.startsWith("/")) return path;
  return cwd === undefined ? `$(unknown folder)/${path}` : `${cwd}/${path}`;
}

/** A command given the input the line sends it, as a here-document: each known input, or none. */
function withInput(code: string, input: readonly string[]): string[] {
  if (input.length === 0) return [code];
  return input.map((text) => {
    let delimiter = "TOOLGATE_INPUT";
    while (text.includes(delimiter)) delimiter += "_";
    return `${code} <<'${delimiter}'\n${text}\n${delimiter}`;
  });
}

const valued: OptionSpec = { arity: "required" };

const runFlags =
  "detach interactive tty rm privileged init read-only publish-all quiet help no-healthcheck oom-kill-disable disable-content-trust sig-proxy use-api-socket";
const runValued =
  "add-host annotation attach blkio-weight blkio-weight-device cap-add cap-drop cgroup-parent cgroupns cidfile cpu-count cpu-percent cpu-period cpu-quota " +
  "cpu-rt-period cpu-rt-runtime cpu-shares cpus cpuset-cpus cpuset-mems detach-keys device device-cgroup-rule device-read-bps device-read-iops " +
  "device-write-bps device-write-iops dns dns-option dns-search domainname entrypoint env env-file expose gpus group-add health-interval health-retries " +
  "health-start-period health-start-interval health-timeout hostname ip ip6 ipc isolation kernel-memory label label-file link link-local-ip log-driver " +
  "log-opt mac-address memory memory-reservation memory-swap memory-swappiness mount name network net network-alias net-alias oom-score-adj pid pids-limit " +
  "platform publish pull restart runtime security-opt shm-size stop-signal stop-timeout storage-opt sysctl tmpfs ulimit user userns uts volume " +
  "volume-driver volumes-from workdir arch os variant";

/** `docker run`/`create` (and podman's, nerdctl's): the options before the image. `--health-cmd` runs in the container too. */
const runGrammar: Grammar = {
  program: "docker run",
  stopAtOperand: true,
  short: { ...letters("dPqit", "acehlmpuvw") },
  long: { ...names(runFlags, runValued), "health-cmd": { arity: "required", runs: "shell" } },
};

const execGrammar: Grammar = {
  program: "docker exec",
  stopAtOperand: true,
  short: letters("dit", "euw"),
  long: names("detach interactive tty privileged help", "detach-keys env env-file user workdir"),
};

const composeGrammar: Grammar = {
  program: "docker compose run",
  stopAtOperand: true,
  short: { ...letters("dTitP", "euvwlp"), v: valued },
  long: names(
    "detach rm no-deps service-ports use-aliases build remove-orphans interactive tty quiet-pull no-TTY privileged help",
    "entrypoint env env-from-file label name publish pull user volume workdir cap-add cap-drop index detach-keys",
  ),
};

// The container tools' own options before the subcommand (`docker --context prod run …`).
const globalValued = new Set([
  "-H",
  "--host",
  "--context",
  "-c",
  "--config",
  "-l",
  "--log-level",
  "--tlscacert",
  "--tlscert",
  "--tlskey",
  "--url",
  "--connection",
]);

/** `docker run … image cmd…`, `docker exec … container cmd…`, `docker compose run|exec … service cmd…`. */
const readContainer: Reader = (invocation, reading) => {
  const { args } = invocation;
  let index = 0;
  while (index < args.length && args[index]!.startsWith("-")) index += globalValued.has(args[index]!) ? 2 : 1;
  let subcommand = args[index];
  if (subcommand === "container") subcommand = args[++index];
  if (subcommand === "compose" || subcommand === "compose-v2") {
    index++;
    while (index < args.length && args[index]!.startsWith("-"))
      index += /^(-f|--file|-p|--project-name|--profile|--env-file|--project-directory|--ansi|--parallel|--progress)$/.test(args[index]!) ? 2 : 1;
    subcommand = args[index];
    if (subcommand === "run" || subcommand === "exec") return readContained(invocation, args.slice(index + 1), composeGrammar, reading, true);
    return;
  }
  if (subcommand === "run" || subcommand === "create") return readContained(invocation, args.slice(index + 1), runGrammar, reading, false);
  if (subcommand === "exec") return readContained(invocation, args.slice(index + 1), execGrammar, reading, false);
};

/** The command a container runs, its bind mounts read as the host folders they are, from its working folder. */
function readContained(invocation: Invocation, args: readonly string[], grammar: Grammar, reading: RunnerReading, composed: boolean): void {
  const read = readArguments(args, grammar);
  if (read.problems.length > 0) return void reading.problems.push(...read.problems);
  const mounts = bindMounts(read, invocation.cwd);
  if (mounts === undefined)
    return void reading.problems.push(`${grammar.program} mounts folders not named here (--volumes-from), so what its command reaches is unknown`);
  const start = startFolder(read, mounts.length > 0 || composed);
  for (const option of read.options)
    if (option.spec.runs === "shell" && option.value !== undefined)
      addMountedCode(reading, `${start}${option.value}`, mounts, `${grammar.program} ${option.name}`);
  const entrypoint = read.options.find((option) => option.name === "--entrypoint")?.value;
  const command = [...(entrypoint === undefined || entrypoint === "" ? [] : [entrypoint]), ...args.slice(read.end + 1)];
  if (command.length === 0) return;
  const interactive = read.options.some((option) => option.name === "-i" || option.name === "--interactive");
  for (const code of interactive ? withLineInput(invocation, `${start}${commandLine(command)}`) : [`${start}${commandLine(command)}`])
    addMountedCode(reading, code, mounts, grammar.program);
}

/**
 * Where the command starts: the folder `-w` names, else the image's, which is not known. It matters
 * only where the container reaches host folders (a bind mount, or a compose file's, which are not read).
 */
function startFolder(read: ReadArguments, reachesHost: boolean): string {
  const workdir = read.options.find((option) => option.name === "-w" || option.name === "--workdir")?.value;
  if (workdir !== undefined) return `cd ${commandLine([workdir])}; `;
  return reachesHost ? 'cd "$(image-working-folder)"; ' : "";
}

export interface Mount {
  /** The folder inside the container. */
  target: string;
  /** The host folder it is. */
  source: string;
}

/** The writable bind mounts (`-v /host:/in`, `--mount type=bind,source=…`); undefined when some are not named (`--volumes-from`). */
function bindMounts(read: ReadArguments, cwd: string | undefined): Mount[] | undefined {
  const mounts: Mount[] = [];
  for (const { name, value } of read.options) {
    if (value === undefined) continue;
    if (name === "--volumes-from") return undefined;
    const mount =
      name === "-v" || name === "--volume" || name === "--device"
        ? volumeMount(value, name === "--device")
        : name === "--mount"
          ? mountOption(value)
          : undefined;
    if (mount === undefined || !/^[/.~]/.test(mount.source)) continue;
    const source = /^[/~]/.test(mount.source) ? mount.source : cwd === undefined ? "$(unknown folder)" : `${cwd}/${mount.source}`;
    // Docker cleans the target (`/h/.`, `//h`, `/x/../h` are `/h`); the command spells it cleanly or is refused.
    mounts.push({ target: posix.normalize(`/${mount.target}`).replace(/\/+$/, "") || "/", source });
  }
  return mounts.sort((a, b) => b.target.length - a.target.length);
}

/** `-v source:target[:options]`, and `--device source[:target[:permissions]]` (a device is where it is mapped too). */
export function volumeMount(volume: string, device: boolean): Mount | undefined {
  const [source, target = device ? source : undefined, options = ""] = volume.split(":");
  const modes = options.split(",");
  if (target === undefined || (modes.includes("ro") && !modes.includes("rw"))) return undefined;
  return { source: source!, target };
}

/**
 * `--mount type=bind,src=…,dst=…` (fields in any order, each maybe quoted, `type` any case). A volume
 * whose driver binds a device (`volume-opt=device=/`) reaches that host folder too. `readonly=false` is writable.
 */
export function mountOption(mount: string): Mount | undefined {
  const fields = new Map<string, string>();
  for (const field of mount.split(",").map((text) => text.replace(/^"(.*)"$/, "$1"))) {
    const equals = field.indexOf("=");
    const key = (equals === -1 ? field : field.slice(0, equals)).toLowerCase();
    fields.set(key === "volume-opt" ? `volume-opt ${field.slice(equals + 1).split("=")[0]}` : key, equals === -1 ? "true" : field.slice(equals + 1));
  }
  if (isTrue(fields.get("readonly") ?? fields.get("ro"))) return undefined;
  const device = fields.get("volume-opt device")?.replace(/^device=/, "");
  const bound = (fields.get("type") ?? "volume").toLowerCase() === "bind";
  const source = bound ? (fields.get("source") ?? fields.get("src")) : device;
  const target = fields.get("target") ?? fields.get("dst") ?? fields.get("destination");
  return source === undefined || target === undefined ? undefined : { source, target };
}

function isTrue(flag: string | undefined): boolean {
  return flag !== undefined && !/^(false|0)$/i.test(flag);
}

/**
 * Adds a contained command, its mounts' folders spelled as the host folders they are. The rewriting is
 * textual, so a command that could reach a mount by another spelling (its parent folder, `cd /`, a
 * glob or quote in a folder name on the way, `//`, `.`, `..`) is refused rather than read wrongly.
 */
function addMountedCode(reading: RunnerReading, code: string, mounts: readonly Mount[], how: string): void {
  const unfollowed = mounts.length === 0 ? undefined : pathSpellings(code).find((path) => mounts.some((mount) => reachesOtherwise(path, mount.target)));
  if (unfollowed === undefined) return addCode(reading, throughMounts(code, mounts), how);
  reading.problems.push(
    `${how} names ${unfollowed}, which may reach a folder mounted from the host by a spelling not followed here, so what it changes there is unknown`,
  );
}

/** The absolute paths a command's text spells (`/tmp/h`, `/tmp}/h` in `${X:-/tmp}/h`), up to a separator, outer quotes dropped. */
function pathSpellings(code: string): string[] {
  return [...code.matchAll(/(?<=^|[\s'"=:;(|&<>{,-])\/[^\s;|&()<>]*/g)].map((match) => match[0].replace(/['"]+$/, ""));
}

/** Whether a path spelling could name the mount target or a folder holding it other than by spelling it out. */
function reachesOtherwise(path: string, target: string): boolean {
  const parts = path.replace(/\/+$/, "").split("/").slice(1);
  const targetParts = target === "/" ? [] : target.split("/").slice(1);
  let index = 0;
  while (index < parts.length && index < targetParts.length && parts[index] === targetParts[index]) index++;
  if (index === parts.length) return index < targetParts.length;
  if (index < targetParts.length) return !/^(?!\.\.?$)[\w@%+=:,.-]+$/.test(parts[index]!);
  return parts.slice(index).includes("..");
}

/** The command's text with each mount's folder inside the container spelled as the host folder it is. */
function throughMounts(code: string, mounts: readonly Mount[]): string {
  let text = code;
  for (const { target, source } of mounts) {
    const inside =
      target === "/"
        ? /(?<=^|[\s'"=:;(|&<>])\/(?=[\s'";|&)<>]|$)/g
        : new RegExp(String.raw`(?<=^|[\s'"=:;(|&<>])${escapedForRegExp(target)}(?=[/\s'";|&)<>]|$)`, "g");
    text = text.replace(inside, source);
  }
  return text;
}

function escapedForRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

const kubectlExecGrammar: Grammar = {
  program: "kubectl exec",
  stopAtOperand: false,
  short: letters("itq", "cnf"),
  long: names("stdin tty quiet", "container namespace filename context kubeconfig pod-running-timeout cluster user server as"),
};

/**
 * `kubectl exec pod -- cmd…`, `kubectl run x --image=i -- cmd…`, `kubectl debug node/n -- cmd…` (the
 * node's root is mounted at `/host`): the command after `--`.
 */
const readKubectl: Reader = (invocation, reading) => {
  const { args } = invocation;
  const dash = args.indexOf("--");
  const own = dash === -1 ? args : args.slice(0, dash);
  // The verb may follow kubectl's own options (`kubectl -n prod exec …`), whose values are not known here.
  const verbAt = own.findIndex((arg) => arg === "exec" || arg === "run" || arg === "debug");
  if (verbAt === -1) return;
  const verb = own[verbAt]!;
  const command = dash === -1 ? (verb === "exec" ? execCommand(args.slice(verbAt + 1), reading) : []) : args.slice(dash + 1);
  if (command.length === 0) return;
  const nodeRoot = verb === "debug" && args.some((arg) => /^nodes?\//.test(arg));
  if (verb === "exec" && dash !== -1) reading.problems.push(...readArguments(args.slice(verbAt + 1, dash), kubectlExecGrammar).problems);
  const interactive = own.some((arg) => arg === "--stdin" || arg === "--stdin=true" || /^-[a-zA-Z]*i[a-zA-Z]*$/.test(arg));
  const code = commandLine(command);
  for (const withIt of interactive ? withLineInput(invocation, code) : [code])
    addMountedCode(reading, withIt, nodeRoot ? [{ target: "/host", source: "/" }] : [], `kubectl ${verb}`);
};

/** `kubectl exec pod cmd…`, the older form without `--`: the words after the pod. */
function execCommand(args: readonly string[], reading: RunnerReading): string[] {
  const read = readArguments(args, { ...kubectlExecGrammar, stopAtOperand: true });
  reading.problems.push(...read.problems);
  return args.slice(read.end + 1);
}

/**
 * `gcloud compute ssh vm --command 'cmd'` (and `tpus tpu-vm ssh`, `alpha`/`beta` forms): the command,
 * and the words after `--` (handed to ssh), run in the remote home.
 */
const readGcloud: Reader = (invocation, reading) => {
  const { args } = invocation;
  const dash = args.indexOf("--");
  const own = dash === -1 ? args : args.slice(0, dash);
  if (!own.includes("ssh")) return;
  for (let index = 0; index < own.length; index++) {
    const arg = own[index]!;
    const command = arg === "--command" ? own[++index] : arg.startsWith("--command=") ? arg.slice("--command=".length) : undefined;
    if (command !== undefined) addCode(reading, `cd; ${command}`, "gcloud … ssh --command");
    // A flags file may hold `--command`.
    if (arg === "--flags-file" || arg.startsWith("--flags-file=")) addUnread(reading, "gcloud … ssh --flags-file", "the flags in its file");
  }
  if (dash !== -1 && dash < args.length - 1) addCode(reading, `cd; ${args.slice(dash + 1).join(" ")}`, "gcloud … ssh --");
};

/** The runners this module adds, by the name `unwrap` gives. */
export const elsewhereRunners: [string, Reader][] = [
  ["docker", readContainer],
  ["podman", readContainer],
  ["nerdctl", readContainer],
  ["kubectl", readKubectl],
  ["gcloud", readGcloud],
];
