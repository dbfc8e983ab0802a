import { posix } from "node:path";
import { isCommandFlag, shells, type Analysis, type Invocation } from "./shell/invocations.js";
import { maskQuoted } from "./shell/lex.js";

/** A rule: an id to name it in `disable`, the message the model receives, and the test. */
export interface Rule {
  id: string;
  message: string;
  /** `command` is the command line as the tool received it; `analysis` what it would run. */
  matches(command: string, analysis: Analysis): boolean;
}

const some = (test: (invocation: Invocation) => boolean) => (_command: string, analysis: Analysis) => analysis.invocations.some(test);

/**
 * The built-in rules, most specific first: the first rule that matches supplies the message, so
 * `sudo rm -rf /` is reported as a root delete rather than as sudo.
 */
export const builtinRules: readonly Rule[] = [
  {
    id: "rm-root",
    message: "refusing to delete the root directory (rm -rf /). Delete specific paths inside the project instead.",
    matches: some((invocation) => isRecursiveRemoveOf(invocation, isRootPath)),
  },
  {
    id: "rm-home",
    message: "refusing to delete the home directory (rm -rf ~). Delete specific paths inside the project instead.",
    matches: some((invocation) => isRecursiveRemoveOf(invocation, isHomePath)),
  },
  {
    id: "fork-bomb",
    message: "refusing to run a fork bomb (:(){ :|:& };:). It would exhaust the machine's processes; run the command you actually need instead.",
    // On each script with its quoted text blanked: `echo ':(){ :|:& };:'` only prints one.
    matches: (_command, analysis) => analysis.scripts.some((script) => forkBomb.test(maskQuoted(script))),
  },
  {
    id: "pipe-to-shell",
    message:
      "refusing to run a downloaded script straight in a shell (curl … | sh). Download it to a file, read it, and run only the steps you need.",
    matches: some(runsDownloadedScript),
  },
  {
    id: "write-etc",
    message: "refusing to change system configuration in /etc. Write to a file inside the project instead, or ask the user to make the change.",
    matches: some(writesUnderEtc),
  },
  {
    id: "mkfs",
    message: "refusing to format a filesystem (mkfs). It erases the device; ask the user to do it if it is really needed.",
    matches: some((invocation) => /^(mkfs(\..+)?|mke2fs)$/.test(invocation.name)),
  },
  {
    id: "disk-overwrite",
    message: "refusing to write directly to a disk device (dd of=/dev/sd…). Write to a regular file instead.",
    matches: some(overwritesDisk),
  },
  {
    id: "sudo",
    message: "refusing to run a command with elevated privileges (sudo). Run it without sudo, or ask the user to run it themselves.",
    matches: some((invocation) => [invocation.name, ...invocation.wrappers].some((name) => privilegeCommands.has(name))),
  },
];

const privilegeCommands = new Set(["sudo", "doas", "su", "pkexec"]);
const downloaders = new Set(["curl", "wget"]);
// `name(){ name|name& };name`, with any function name, optional spaces and the `function` keyword.
const forkBomb = /(?:^|[\s;&|('"`])(?:function\s+)?([^\s(){};&|<>'"`]+)\s*(?:\(\s*\)\s*)?\{\s*\1\s*\|\s*\1\s*&?\s*;?\s*\}/;
const diskDevice = /^\/dev\/(sd[a-z]|hd[a-z]|vd[a-z]|xvd[a-z]|nvme\d|mmcblk\d|disk\d|rdisk\d|md\d|dm-\d|mapper\/)/;
const writingRedirects = new Set([">", ">>", ">|", "&>", "&>>", "<>"]);

function isRecursiveRemoveOf(invocation: Invocation, isTarget: (path: string) => boolean): boolean {
  if (invocation.name !== "rm") return false;
  let recursive = false;
  let options = true;
  const operands: string[] = [];
  for (const arg of invocation.args) {
    if (options && arg === "--") options = false;
    else if (options && arg.startsWith("--")) recursive ||= arg.length >= 3 && "--recursive".startsWith(arg);
    else if (options && arg.startsWith("-") && arg.length > 1) recursive ||= /[rR]/.test(arg);
    else operands.push(arg);
  }
  return recursive && operands.some(isTarget);
}

/** `/`, `//`, `/*`, `/./`, `/tmp/..`, `/*\/*`: the root itself or everything directly in it. */
export function isRootPath(path: string): boolean {
  return path.startsWith("/") && onlyGlobs(posix.normalize(path));
}

/** `~`, `~/`, `~/*`, `~user`, `$HOME`, `${HOME}/`, `"$HOME"/*`: a home directory itself or all of it. */
export function isHomePath(path: string): boolean {
  const match = /^(~[A-Za-z0-9_.-]*|\$HOME|\$\{HOME\})(\/.*)?$/.exec(path);
  return match !== null && onlyGlobs(posix.normalize(`/${match[2] ?? ""}`));
}

function onlyGlobs(normalized: string): boolean {
  return normalized.split("/").every((segment) => segment === "" || segment === "*" || segment === ".");
}

function isUnderEtc(path: string): boolean {
  if (!path.startsWith("/")) return false;
  const normalized = posix.normalize(path);
  return normalized === "/etc" || normalized.startsWith("/etc/");
}

function runsDownloadedScript(invocation: Invocation): boolean {
  const downloads = (invocations: readonly Invocation[]) => invocations.some((other) => downloaders.has(other.name));
  if (invocation.name === "source" || invocation.name === "." || invocation.name === "eval") return downloads(invocation.nested);
  if (!shells.has(invocation.name)) return false;
  const readsStdin = !invocation.args.some(isCommandFlag);
  return downloads(invocation.nested) || (readsStdin && downloads(invocation.upstream));
}

function writesUnderEtc(invocation: Invocation): boolean {
  if (invocation.redirects.some((redirect) => writingRedirects.has(redirect.operator) && isUnderEtc(redirect.target.text))) return true;
  const operands = invocation.args.filter((arg) => !arg.startsWith("-"));
  switch (invocation.name) {
    case "tee":
    case "touch":
    case "truncate":
    case "rm":
    case "rmdir":
    case "unlink":
    case "mkdir":
      return operands.some(isUnderEtc);
    case "cp":
    case "mv":
    case "install":
    case "ln":
    case "rsync":
      return isUnderEtc(targetOf(invocation.args, operands));
    case "sed":
      return invocation.args.some((arg) => /^(-[a-zA-Z]*i|--in-place)/.test(arg)) && operands.some(isUnderEtc);
    case "dd":
      return invocation.args.some((arg) => arg.startsWith("of=") && isUnderEtc(arg.slice(3)));
    default:
      return false;
  }
}

/** Where `cp`/`mv`/… write: `-t DIR`, `--target-directory=DIR`, or the last operand. */
function targetOf(args: readonly string[], operands: readonly string[]): string {
  const flag = args.findIndex((arg) => arg === "-t" || arg === "--target-directory");
  if (flag !== -1) return args[flag + 1] ?? "";
  const long = args.find((arg) => arg.startsWith("--target-directory="));
  if (long) return long.slice("--target-directory=".length);
  return operands.length >= 2 ? operands[operands.length - 1]! : "";
}

function overwritesDisk(invocation: Invocation): boolean {
  if (invocation.redirects.some((redirect) => writingRedirects.has(redirect.operator) && diskDevice.test(redirect.target.text))) return true;
  if (invocation.name === "dd") return invocation.args.some((arg) => arg.startsWith("of=") && diskDevice.test(arg.slice(3)));
  if (invocation.name === "shred" || invocation.name === "wipefs") return invocation.args.some((arg) => diskDevice.test(arg));
  return false;
}
