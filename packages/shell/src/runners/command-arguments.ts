import type { Invocation } from "../invocations.js";
import { unknownText } from "../unknown.js";
import type { RunnerReading } from "./reading.js";
import { stdinTexts } from "../static-text.js";

/**
 * The rule for every program the reader has no model of: when one of its arguments reads as a command
 * (a word naming a program that runs or destroys things, or a string whose first word does), the program
 * may run it (`proot rm -rf ~`, `tool 'rm -rf ~'`), and what it runs is unknown. Arguments that read as
 * plain data (`cargo build`, `make test`) leave it alone; programs known to treat their arguments as data
 * (`echo rm`, `grep 'rm -rf'`, `which rm`) are listed in `inert`.
 */

// Programs that treat every argument as data: text, a pattern, a name to look up.
const inert = new Set(
  (
    "echo printf grep egrep fgrep rg ag ack cat ls dir ll man info whatis apropos which type whereis hash help command " +
    "head tail wc sort uniq cut tr diff cmp comm file stat basename dirname realpath readlink test [ [[ true false : printenv " +
    "unalias complete compgen alias cd pushd popd jq yq less more column fold fmt nl od hexdump xxd base64 sha256sum md5sum " +
    "logger notify-send say wall write mail tldr cheat history read mapfile export declare local readonly typeset unset shift " +
    "return exit break continue wait kill trap eval source let builtin exec time watch parallel su runuser gh glab pgrep pidof ps top htop id whoami groups tput stty date cal sleep seq yes tee " +
    "touch mkdir"
  ).split(" "),
);

// Package managers: installing, removing or looking up a package names it as data (`npm install find`).
const packageCommands = /^(install|i|add|remove|rm|uninstall|un|info|show|view|search|list|ls|why|outdated|update|upgrade)$/;
const packageManagers = new Set([
  "npm",
  "pnpm",
  "yarn",
  "bun",
  "pip",
  "pip3",
  "pipx",
  "uv",
  "brew",
  "cargo",
  "gem",
  "go",
  "apk",
  "dnf",
  "yum",
  "pacman",
  "zypper",
  "snap",
  "flatpak",
  "port",
  "conda",
  "mamba",
  "poetry",
  "composer",
]);

// Programs the guard has rules for, or that destroy data, besides the runners and shells the caller adds.
const destroyers =
  "rm unlink srm shred wipe wipefs tee dd ddrescue pv truncate fallocate mkswap mke2fs mkfs fdisk sfdisk cfdisk gdisk sgdisk parted partx blkdiscard hdparm nvme " +
  "cryptsetup lvremove vgremove pvremove zpool zfs mdadm chmod chown chgrp chattr mv cp ln install rsync kill pkill killall shutdown reboot halt poweroff " +
  "systemctl service init telinit crontab at docker podman kubectl helm terraform aws gcloud az gsutil psql mysql mongo mongosh redis-cli dropdb " +
  "sudo doas su runuser pkexec run0 env nice nohup timeout stdbuf setsid ionice chrt taskset time xargs exec eval source curl wget nc ncat socat";

// Runner names that are also everyday words in arguments (`gh pr view`, `npm run make`): not a sign of a command alone.
const everydayWords = new Set([
  "view",
  "at",
  "batch",
  "ex",
  "less",
  "man",
  "make",
  "gmake",
  "screen",
  "expect",
  "fc",
  "script",
  "time",
  "run",
  "vi",
  "emacs",
  "sed",
  "tar",
  "zip",
  "git",
  "m4",
  "entr",
  "apt",
  "dpkg",
  "crontab",
]);

// Interpreters that make an argument read as a command but whose own code no reader reads (`lua -e '…'`).
const unreadInterpreters = new Set(["lua", "tclsh"]);

let commandNames: ReadonlySet<string> | undefined;

/** The names that make an argument read as a command: the destroyers, the runners, the shells and the interpreters. */
function namesOf(runners: ReadonlySet<string>, shells: ReadonlySet<string>): ReadonlySet<string> {
  commandNames ??= new Set([
    ...destroyers.split(" "),
    ...[...runners].filter((name) => !everydayWords.has(name)),
    ...shells,
    ..."python python2 python3 pypy pypy3 node nodejs bun deno ruby perl php lua tclsh tsx ts-node".split(" "),
  ]);
  return commandNames;
}

function baseName(word: string): string {
  return word.slice(word.lastIndexOf("/") + 1);
}

/** The program an argument would run, when it reads as a command; undefined for data. */
function commandIn(arg: string, names: ReadonlySet<string>): string | undefined {
  // The common argument (`build`, `./dist`, `--mode`) has no value, no attached text and nothing to trim or
  // split: it is the command's own name. Exactly what the searches below would find, without them.
  if (isBareWord(arg)) return knownCommand(baseName(arg).toLowerCase(), names);
  // A word only known at run time (`for f in $(…)`) names nothing; the searches below are slow on its private-use character.
  if (arg === unknownText) return undefined;
  // `--exec=rm`, `CMD='rm -rf ~'`: the value of an option or a setting.
  const value = /^[^=\s]*=(.*)$/s.exec(arg)?.[1] ?? arg;
  // `-c'rm -rf ~'`: a letter's value attached to it.
  const attached = /^-[A-Za-z](\S+\s.*)$/s.exec(arg)?.[1];
  return commandAt(value, names) ?? (attached === undefined ? undefined : commandAt(attached, names)) ?? commandInStrings(arg, names);
}

// A string literal inside code: `os.execute("rm -rf ~")`, `system('rm -rf ~')`.
const stringLiteral = /(["'`])([^"'`]*)\1/g;

function commandInStrings(arg: string, names: ReadonlySet<string>): string | undefined {
  for (const [, , text] of arg.matchAll(stringLiteral)) {
    const found = commandAt(text!, names);
    if (found !== undefined) return found;
  }
  return undefined;
}

// What a program's command language puts before a line it hands to a shell: `!` (ed, ex, sftp, ftp), `\!` (psql), `.shell` (sqlite3), `shell` (gdb).
const shellEscape = /^\s*(?:!|\\!|\.?(?:shell|system)\s)/;

/** The program a line of a program's known input would run: `ed f <<< '!rm -rf ~'`. */
function commandInInput(invocation: Invocation, names: ReadonlySet<string>): string | undefined {
  for (const text of stdinTexts(invocation)) {
    for (const line of text.split("\n")) {
      const found = commandAt(line.replace(shellEscape, ""), names);
      if (found !== undefined) return found;
    }
  }
  return undefined;
}

function commandAt(value: string, names: ReadonlySet<string>): string | undefined {
  const first = value.trimStart().split(/[\s;&|]/, 1)[0] ?? "";
  // `RM` on a case-insensitive file system is `rm`.
  return knownCommand(baseName(first.replace(/^["'\\]+|["']+$/g, "")).toLowerCase(), names);
}

function knownCommand(name: string, names: ReadonlySet<string>): string | undefined {
  if (name === "") return undefined;
  if (names.has(name) || /^mkfs(\.\w+)?$/.test(name) || /^python\d/.test(name)) return name;
  return undefined;
}

/**
 * Printable ASCII with no space, `=`, `;`, `&`, `|`, quote, backtick or backslash: nothing `commandIn` would cut
 * away, and no quoted text inside it to read.
 */
function isBareWord(arg: string): boolean {
  for (let index = 0; index < arg.length; index++) {
    const code = arg.charCodeAt(index);
    if (code <= 32 || code >= 127 || code === 61 || code === 59 || code === 38 || code === 124 || code === 34 || code === 39 || code === 96 || code === 92)
      return false;
  }
  return true;
}

const messageOption = /^(--(title|body|message|description|subject|notes|comment|summary|reason|label|name)(=.*)?|-m)$/s;

/** Adds a problem when a program with no model is given an argument that reads as a command. */
export function readCommandArguments(invocation: Invocation, reading: RunnerReading, modelled: ReadonlySet<string>, shells: ReadonlySet<string>): void {
  const { name, args } = invocation;
  if (name === "" || inert.has(name) || modelled.has(name)) return;
  // An option or a number where `unwrap` expected the command (`flock f -c …`, `timeout --kill 5 10 cmd`): the wrapper's own reader reads that line.
  if (name.startsWith("-") || /^\d+$/.test(name)) return;
  const names = namesOf(modelled, shells);
  if ((names.has(name) && !unreadInterpreters.has(name)) || /^mkfs/.test(name)) return;
  if (packageManagers.has(name) && args.some((arg) => packageCommands.test(arg))) return;
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    const found = commandIn(arg, names);
    if (found === undefined) continue;
    // A title or a message is text (`gh issue create --title 'rm -rf / happened'`). Asked only of an argument
    // that reads as a command: most read as none.
    if (messageOption.test(arg) || (index > 0 && messageOption.test(args[index - 1]!))) continue;
    const shown = arg.length > 40 ? `${arg.slice(0, 40)}…` : arg;
    reading.problems.push(`${name} may run \`${shown}\` from its arguments, and the reader has no model of ${name}, so what it runs is unknown`);
    return;
  }
  const fromInput = commandInInput(invocation, names);
  if (fromInput !== undefined)
    reading.problems.push(`${name} may run ${fromInput} from the text it reads, and the reader has no model of ${name}, so what it runs is unknown`);
}
