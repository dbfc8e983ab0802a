import { posix } from "node:path";
import { classifyTarget } from "../paths.js";
import { isCommandFlag, maskQuoted, shells, unwrap, type Invocation } from "@toolgate/shell";
import { findExpression, findStartPaths } from "./deletes.js";
import { diskWritten, mayBeDevice, mayWriteDevice } from "./devices.js";
import { interpreterCode, runsCode } from "./interpreter-code.js";
import { firstMessage, hasFlag, positionals, show, type Facts, type Rule } from "./rule.js";

const privilegeCommands = new Set(["sudo", "doas", "su", "pkexec", "run0"]);
const downloaders = new Set(["curl", "wget", "fetch", "http", "xh", "aria2c"]);
const interpreters = /^(python(\d+(\.\d+)*)?|node|ruby|perl|php|bun|deno)$/;
// `name(){ name|name& };name`, with any function name, optional spaces and the `function` keyword.
const forkBomb = /(?:^|[\s;&|('"`])(?:function\s+)?([^\s(){};&|<>'"`]+)\s*(?:\(\s*\)\s*)?\{\s*\1\s*\|\s*\1\s*&?\s*;?\s*\}/;
// The same function started twice with `&` between (`f(){ f & f; }`).
const forkBombBackground = /(?:^|[\s;&|('"`])(?:function\s+)?([^\s(){};&|<>'"`]+)\s*(?:\(\s*\)\s*)?\{\s*\1\s*&\s*;?\s*\1\s*[&;]?\s*;?\s*\}/;
// The script itself started in the background in an endless loop.
const forkLoop = /\bwhile\s+(?:true|:|\[\s*1\s*\])\s*;\s*do\s+(?:\$0|"\$0"|\$BASH_SOURCE|bash\s+"?\$0"?|sh\s+"?\$0"?)\s*&\s*;?\s*done/;
// What both function forms have after their `{`: one word, then `|` or `&`.
const callInBody = /\s*[^\s(){};&|<>'"`]+\s*[|&]/y;

/**
 * Whether some `{` is followed by one word and `|` or `&`. The two function-form patterns above
 * backtrack over every word of a long script (a 10 KB heredoc), so they only run where this finds a
 * candidate. Only the last `{` before a `|` or `&` can be one (a word holds no `{`), so `indexOf`
 * leads from brace to call and back, each part of the text read about once.
 */
function hasCallInBody(script: string): boolean {
  let bar = script.indexOf("|");
  let ampersand = script.indexOf("&");
  for (let brace = script.indexOf("{"); brace !== -1; ) {
    if (bar !== -1 && bar < brace) bar = script.indexOf("|", brace);
    if (ampersand !== -1 && ampersand < brace) ampersand = script.indexOf("&", brace);
    const call = bar === -1 || (ampersand !== -1 && ampersand < bar) ? ampersand : bar;
    if (call === -1) return false;
    callInBody.lastIndex = script.lastIndexOf("{", call) + 1;
    if (callInBody.test(script)) return true;
    brace = script.indexOf("{", call);
  }
  return false;
}

/** Fork bombs in `script` outside its quoted text (`echo ':(){ :|:& };:'` only prints one). */
function isShellForkBomb(script: string): boolean {
  // Tried on the raw text: masking only blanks quoted characters, none of which these need.
  const call = hasCallInBody(script);
  const loop = script.includes("while") && script.includes("&");
  if (!call && !loop) return false;
  const masked = maskQuoted(script);
  return (call && (forkBomb.test(masked) || forkBombBackground.test(masked))) || (loop && forkLoop.test(masked));
}
const writingRedirects = new Set([">", ">>", ">|", "&>", "&>>", "<>"]);
// One list each for every decision: `named` keeps its answers by the list asked with.
const finders: readonly string[] = ["find"];
const recursiveChangers: readonly string[] = ["chmod", "chown", "chgrp"];
const movers: readonly string[] = ["mv"];

const each = (check: (invocation: Invocation, facts: Facts) => string | undefined) => (facts: Facts) =>
  firstMessage(facts.analysis.invocations, (invocation) => check(invocation, facts));

/** `each`, over only the commands whose name passes `test` (and those with a redirect, when `redirecting`): `check` answers nothing for the others. */
const among = (test: (name: string) => boolean, redirecting: boolean, check: (invocation: Invocation, facts: Facts) => string | undefined) => (facts: Facts) =>
  firstMessage(facts.where(test, redirecting), (invocation) => check(invocation, facts));

/** The commands that format or wipe a device. */
function isFormatter(name: string): boolean {
  return (name.startsWith("mk") || name === "wipefs") && /^(mkfs(\..+)?|mke2fs|mkswap|wipefs)$/.test(name);
}

/** Whether `writesUnderEtc` or a one-liner can write under /etc without a redirect, by the command's name. */
function mayWriteEtc(name: string): boolean {
  return etcWriters.has(name) || runsCode(name);
}

export const systemRules: readonly Rule[] = [
  {
    id: "fork-bomb",
    pack: "core",
    catastrophic: true,
    summary: "fork bombs (`:(){ :|:& };:`, any function name; `fork while fork` and endless fork loops in Python, Perl, Ruby, Node, PHP)",
    check: (facts) => {
      if (facts.analysis.scripts.some(isShellForkBomb))
        return "refusing to run a fork bomb (a function that starts itself twice, in the background): it would exhaust the machine's processes. Run the command you actually need instead.";
      return firstMessage(facts.where(runsCode), (invocation) =>
        interpreterCode(invocation, facts)?.forkBomb
          ? `refusing to run a fork bomb: ${show(invocation)} forks in an endless loop and would exhaust the machine's processes. Run the command you actually need instead.`
          : undefined,
      );
    },
  },
  {
    id: "disk-overwrite",
    pack: "core",
    catastrophic: true,
    summary:
      "raw writes to a disk device by any program (`dd of=/dev/sda`, `> /dev/nvme0n1`, `tee`, `cp img /dev/sdb`, `shred`, one-liners opening it for writing)",
    check: among(mayWriteDevice, true, (invocation, facts) =>
      diskWritten(invocation, facts) !== undefined
        ? `refusing to write directly to a disk device: ${show(invocation)} would destroy the filesystem on it. Write to a regular file inside the project instead.`
        : undefined,
    ),
  },
  {
    id: "mkfs",
    pack: "core",
    catastrophic: true,
    summary: "formatting a device (`mkfs`, `mkfs.ext4`, `mke2fs`, `wipefs` on `/dev/…`)",
    check: among(isFormatter, false, (invocation) =>
      isFormatter(invocation.name) &&
      // Every word that is not an option: a label or size read as a device only errs on the safe side.
      invocation.args.some((arg) => !arg.startsWith("-") && mayBeDevice(arg, invocation.cwd))
        ? `refusing to format or wipe a device: ${show(invocation)} erases everything on it. Ask the user to do it if it is really needed.`
        : undefined,
    ),
  },
  {
    id: "permissions-recursive",
    pack: "core",
    catastrophic: true,
    summary: "recursive `chmod`/`chown` of `/`, a system folder or the home folder, also through `find … -exec chmod`",
    check: (facts) =>
      firstMessage(facts.named(finders), (invocation) => findChangesPermissions(invocation, facts)) ??
      firstMessage(facts.named(recursiveChangers), (invocation) => {
        // `find / | xargs chmod 777`: what find lists, the change reaches.
        const finder = invocation.input === "stdin" ? invocation.upstream.find((other) => other.name === "find") : undefined;
        if (finder !== undefined) return changesEverythingUnder(finder, invocation, facts);
        if (!hasFlag(invocation.args, "R", "--recursive")) return undefined;
        const hit = positionals(invocation.args)
          .slice(1)
          .map((operand) => classifyTarget(operand, invocation.cwd, facts.context))
          .find((target) => target.kind === "root" || target.kind === "system" || target.kind === "home");
        return hit === undefined
          ? undefined
          : `refusing to change permissions recursively on ${hit.path}: ${show(invocation)} can make the machine unusable or its files readable by anyone. Change the permissions of specific files inside the project instead.`;
      }),
  },
  {
    id: "mv-catastrophic",
    pack: "core",
    catastrophic: true,
    summary: "moving `/`, a system folder, the home folder or the project root away (`mv ~ /tmp/x`)",
    check: (facts) =>
      firstMessage(facts.named(movers), (invocation) => {
        const hit = movedSources(invocation)
          .map((operand) => classifyTarget(operand, invocation.cwd, facts.context))
          .find((target) => target.kind === "root" || target.kind === "system" || target.kind === "home" || target.kind === "project");
        return hit === undefined
          ? undefined
          : `refusing to move ${hit.path}: ${show(invocation)} takes a whole system, home or project folder away (and is often the first half of deleting it). Move specific files inside the project instead.`;
      }),
  },
  {
    id: "xargs-shell",
    pack: "core",
    summary: "input spliced into a shell script by xargs/parallel (`xargs -I{} sh -c 'echo {}'`), or `parallel` running its input as commands",
    check: ({ analysis }) =>
      firstMessage(analysis.invocations, (invocation) =>
        runsInputAsScript(invocation)
          ? `refusing ${show(invocation)}: it runs input that cannot be seen here as shell code, so what it does cannot be checked. Pass the input as arguments instead (\`sh -c '… "$1"' _\`), or run the command on explicit arguments.`
          : undefined,
      ),
  },
  {
    id: "pipe-to-shell",
    pack: "core",
    summary: 'a downloaded script run straight in a shell (`curl … | sh`, `bash <(curl …)`, `sh -c "$(curl …)"`)',
    check: ({ named }) =>
      firstMessage(named(scriptRunners), (invocation) =>
        runsDownloadedScript(invocation)
          ? `refusing to run a downloaded script straight in a shell: ${show(invocation)}. Download it to a file, read it, and run only the steps you need.`
          : undefined,
      ),
  },
  {
    id: "decode-to-shell",
    pack: "core",
    summary: "encoded text decoded into a shell (`echo … | base64 -d | sh`)",
    check: ({ named }) =>
      firstMessage(named(scriptRunners), (invocation) =>
        runsDecodedScript(invocation)
          ? `refusing to run decoded text in a shell: ${show(invocation)} hides what it runs. Write the command out in plain text instead.`
          : undefined,
      ),
  },
  {
    id: "write-etc",
    pack: "core",
    summary: "changes under `/etc` (redirects, `tee`, `cp`/`mv`, `sed -i`, `perl -i`, one-liners that open a file there for writing, …)",
    check: among(mayWriteEtc, true, (invocation, facts) =>
      writesUnderEtc(invocation) || interpreterCode(invocation, facts)?.writes.some((write) => isUnderEtc(write.target))
        ? `refusing to change system configuration in /etc: ${show(invocation)}. Write to a file inside the project instead, or ask the user to make the change.`
        : undefined,
    ),
  },
];

export const sudoRule: Rule = {
  id: "sudo",
  pack: "core",
  summary: "a root shell with nothing to check (`sudo -i`, `sudo -s`, `sudo su`, `su`, `sudo bash`); the commands `sudo` runs are checked like any other",
  check: each((invocation) =>
    opensRootShell(invocation)
      ? `refusing to open a shell with elevated privileges: ${show(invocation)} runs whatever comes next as root, and none of it can be checked here. Run the specific command instead (\`sudo <command>\`), or ask the user.`
      : undefined,
  ),
};

/**
 * Privileges with no command to check: `sudo -i`/`-s` alone, `sudo su`, `su` without `-c`, or a shell run
 * by a privilege command with no script of its own (`sudo bash`). The command `sudo` runs is checked by
 * the other rules, so `sudo ls` is as harmless as `ls`.
 */
function opensRootShell(invocation: Invocation): boolean {
  const { name, args, wrappers } = invocation;
  if (wrappers.length === 0 && name !== "su" && name !== "runuser") return false;
  if (name === "su" || name === "runuser") return !args.some((arg) => arg === "-c" || arg === "--command" || arg.startsWith("--command="));
  if (!wrappers.some((wrapper) => privilegeCommands.has(wrapper))) return false;
  // `sudo -l`, `-v`, `-k`: list, refresh or drop the cached credentials, and run nothing.
  // `echo ok | xargs sudo --`: the known input is the command sudo runs, read and checked like any other.
  if (name === "" && invocation.input === "stdin" && invocation.nested.length > 0) return false;
  if (name === "") return !/(^|\s)-(l+|v|k|K|V)(\s|$)|--(list|validate|reset-timestamp|remove-timestamp|version)\b/.test(invocation.text);
  if (name === "login" || name === "sudo" || name === "doas") return true;
  return shells.has(name) && invocation.nested.length === 0 && !args.some(isCommandFlag) && positionals(args).length === 0;
}

/** `xargs -I{} sh -c 'echo {}'` splices input into the script; `parallel` with no command runs input lines. */
function runsInputAsScript(invocation: Invocation): boolean {
  if (invocation.input !== "stdin") return false;
  // `echo ok | parallel`: a known input is read as the commands it is (they are among the nested ones).
  if (invocation.name === "") return invocation.wrappers.includes("parallel") && invocation.nested.length === 0;
  if (!shells.has(invocation.name)) return false;
  const flag = invocation.args.findIndex(isCommandFlag);
  if (flag === -1) return false;
  const script = invocation.args[flag + 1] === ":::" ? undefined : invocation.args[flag + 1];
  // No script: the input becomes the script. `eval "$1"` or `sh -c "$1"`: the input is run as code.
  return (
    script === undefined ||
    /\{\d*\}|\{\.\}|\{\/\}/.test(script) ||
    (invocation.placeholder !== undefined && script.includes(invocation.placeholder)) ||
    /\beval\b|\b(sh|bash|zsh|dash)\s+-c\s+["']?\$/.test(script)
  );
}

const permissionChangers = new Set(["chmod", "chown", "chgrp", "setfacl", "chattr"]);

/** `find / -exec chmod 777 {} +`: find makes any change it runs recursive over the folders it starts from. */
function findChangesPermissions(invocation: Invocation, facts: Facts): string | undefined {
  const changes = findExpression(invocation.args).execs.some((command) => permissionChangers.has(unwrap(command).name));
  return changes ? changesEverythingUnder(invocation, invocation, facts) : undefined;
}

/** The message when `find` walks `/`, a system folder or the home folder for a permission change made by `changer`. */
function changesEverythingUnder(find: Invocation, changer: Invocation, facts: Facts): string | undefined {
  const hit = findStartPaths(find.args)
    .map((path) => classifyTarget(path, find.cwd, facts.context))
    .find((target) => target.kind === "root" || target.kind === "system" || target.kind === "home");
  return hit === undefined
    ? undefined
    : `refusing to change permissions of everything under ${hit.path}: ${show(changer)} can make the machine unusable or its files readable by anyone. Change the permissions of specific files inside the project instead.`;
}

/** What `mv` moves: every operand but the destination (`-t DIR` names the destination instead). */
function movedSources(invocation: Invocation): string[] {
  const operands = positionals(invocation.args, ["-t", "--target-directory", "-S", "--suffix"]);
  const targetFlag = invocation.args.some((arg) => arg === "-t" || arg.startsWith("--target-directory"));
  return targetFlag ? operands : operands.slice(0, -1);
}

function downloads(invocations: readonly Invocation[]): boolean {
  return invocations.some(isDownload);
}

function isDownload(invocation: Invocation): boolean {
  return downloaders.has(invocation.name);
}

function isDecode(other: Invocation): boolean {
  return (
    ((other.name === "base64" || other.name === "base32" || other.name === "basenc") && hasFlag(other.args, "d", "--decode")) ||
    (other.name === "xxd" && hasFlag(other.args, "r", "--revert")) ||
    (other.name === "openssl" && other.args.includes("-d"))
  );
}

// What can run a script it is handed: shells, interpreters, `source`, `eval`.
const scriptRunners = [...shells, "source", ".", "eval", "python", "python3", "python2", "node", "ruby", "perl", "php", "bun", "deno"];

function readsStdin(invocation: Invocation): boolean {
  if (shells.has(invocation.name) && hasFlag(invocation.args, "s")) return true;
  return (
    !invocation.args.some((arg) => isCommandFlag(arg) || /^-(e|r|p|-eval)$/.test(arg)) && positionals(invocation.args).filter((arg) => arg !== "-").length === 0
  );
}

function runsDownloadedScript(invocation: Invocation): boolean {
  const { name } = invocation;
  if (name === "source" || name === "." || name === "eval") return downloads(invocation.nested);
  if (!shells.has(name) && !interpreters.test(name)) return false;
  return downloads(invocation.nested) || (readsStdin(invocation) && downloads(invocation.upstream));
}

function runsDecodedScript(invocation: Invocation): boolean {
  if (invocation.name === "eval" || invocation.name === "source") return invocation.nested.some(isDecode);
  if (!shells.has(invocation.name)) return false;
  return invocation.nested.some(isDecode) || (readsStdin(invocation) && invocation.upstream.some(isDecode));
}

function isUnderEtc(path: string): boolean {
  if (!path.startsWith("/")) return false;
  const normalized = posix.normalize(path);
  return normalized === "/etc" || normalized.startsWith("/etc/") || normalized.startsWith("/private/etc/");
}

const etcWriters = new Set([
  "tee",
  "touch",
  "truncate",
  "rm",
  "rmdir",
  "unlink",
  "mkdir",
  "chmod",
  "chown",
  "cp",
  "mv",
  "install",
  "ln",
  "rsync",
  "sed",
  "perl",
  "ruby",
  "dd",
]);

function writesUnderEtc(invocation: Invocation): boolean {
  // Indexed loops, not `some` and `filter`: a shared reading's lists are frozen, where the built-ins are slow (`copyFrom`).
  const { redirects, args } = invocation;
  for (let index = 0; index < redirects.length; index++) {
    if (writingRedirects.has(redirects[index]!.operator) && isUnderEtc(redirects[index]!.target.text)) return true;
  }
  if (!etcWriters.has(invocation.name)) return false;
  const operands: string[] = [];
  for (let index = 0; index < args.length; index++) if (!args[index]!.startsWith("-")) operands.push(args[index]!);
  switch (invocation.name) {
    case "tee":
    case "touch":
    case "truncate":
    case "rm":
    case "rmdir":
    case "unlink":
    case "mkdir":
    case "chmod":
    case "chown":
      return operands.some(isUnderEtc);
    case "cp":
    case "mv":
    case "install":
    case "ln":
    case "rsync":
      return isUnderEtc(targetOf(invocation.args, operands));
    case "sed":
    case "perl":
    case "ruby":
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
