import type { Invocation } from "./invocations.js";

/**
 * Commands that write files their arguments do not name: a patch, an archive or an encoded file says where
 * its text goes (`patch < p.diff`, `git apply`, `tar -x`, `unzip`, `cpio -i`, `uudecode`), a decompressor
 * writes the name its operand has without the suffix. Fed text from the line, any file may hold it after them.
 */
export function writesUnnamedPlaces(invocation: Invocation): boolean {
  const { name, args } = invocation;
  const read = unnamedWriters.get(name);
  return read?.(args) === true;
}

type ArgsTest = (args: readonly string[]) => boolean;

const always: ArgsTest = () => true;

/** `tar xf`, `tar -xzf`, `tar --extract`: tar writes when it extracts. */
const tarExtracts: ArgsTest = (args) => {
  const first = args[0] ?? "";
  if (!first.startsWith("-") && first.includes("x")) return true;
  return args.some((arg) => arg === "--extract" || arg === "--get" || /^-[A-Za-wyz]*x/.test(arg));
};

/** `patch --dry-run` writes nothing; any other patch does. */
const patchWrites: ArgsTest = (args) => !args.includes("--dry-run");

/** `git apply` (not `--check`/`--stat` alone) and `git am`, past git's own options. */
const gitApplies: ArgsTest = (args) => {
  const subcommand = gitSubcommand(args);
  if (subcommand?.name === "am") return true;
  if (subcommand?.name !== "apply") return false;
  const rest = args.slice(subcommand.at + 1);
  return rest.includes("--apply") || !rest.some((arg) => /^--(check|stat|numstat|summary)$/.test(arg));
};

// git's commands that put a commit's or a stash's files in the work tree without naming them.
const gitWorkTreeWriters = new Set(["stash", "checkout", "restore", "reset", "switch", "cherry-pick", "revert", "merge", "rebase"]);

/**
 * `git reset --hard`, `git stash pop`, `git checkout other`: they write the files of a commit or a stash, which
 * hold the line's text once the line wrote any file (it may have committed or stashed it). `git pull` and
 * `git fetch` write what the remote holds, which the line did not write.
 */
export function rewritesWorkTree(invocation: Invocation): boolean {
  if (invocation.name !== "git") return false;
  const subcommand = gitSubcommand(invocation.args);
  if (subcommand === undefined || !gitWorkTreeWriters.has(subcommand.name)) return false;
  const next = invocation.args[subcommand.at + 1];
  return subcommand.name !== "stash" || next === undefined || !/^(list|show)$/.test(next);
}

function gitSubcommand(args: readonly string[]): { name: string; at: number } | undefined {
  let index = 0;
  while (index < args.length && args[index]!.startsWith("-")) index += args[index] === "-C" || args[index] === "-c" ? 2 : 1;
  return index < args.length ? { name: args[index]!, at: index } : undefined;
}

/** `unzip -l`, `-t`, `-v`, `-p`, `-Z`: list, test or print; anything else extracts. */
const unzipExtracts: ArgsTest = (args) => !args.some((arg) => /^-[a-zA-Z]*[ltvpZz]/.test(arg) && !arg.startsWith("--"));

/** `cpio -i`/`-p` (extract, copy through); `-o` only prints an archive. */
const cpioWrites: ArgsTest = (args) => args.some((arg) => /^-[A-Za-z]*[ip]/.test(arg) || arg === "--extract" || arg === "--pass-through");

/** `7z x`, `unrar e`, `ar x`, `jar xf`: a first word that extracts. */
const subcommandExtracts: ArgsTest = (args) => /^-?[a-z]*[xe]/.test(args[0] ?? "");

/** `pax -r`. */
const paxReads: ArgsTest = (args) => args.some((arg) => /^-[A-Za-z]*r/.test(arg));

/**
 * `gunzip x.sh.gz` writes x.sh; with no file, or with `-c`, `-t` or `-l`, it prints or checks (what it prints
 * goes where redirects say).
 */
const decompressorWrites: ArgsTest = (args) =>
  args.some((arg) => !arg.startsWith("-")) && !args.some((arg) => /^-[A-Za-z]*[ctl]/.test(arg) || arg === "--stdout" || arg === "--test" || arg === "--list");

/** `gzip -d`, `xz -d`, `zstd -d`: the compressors decompress with `-d`. */
const decompresses: ArgsTest = (args) => args.some((arg) => /^-[A-Za-z]*d/.test(arg) || arg === "--decompress") && decompressorWrites(args);

const unnamedWriters = new Map<string, ArgsTest>([
  ["patch", patchWrites],
  ["git", gitApplies],
  ...["tar", "gtar", "bsdtar"].map((name): [string, ArgsTest] => [name, tarExtracts]),
  ["unzip", unzipExtracts],
  ...["cpio", "bsdcpio"].map((name): [string, ArgsTest] => [name, cpioWrites]),
  ...["7z", "7za", "7zr", "unrar", "ar", "jar"].map((name): [string, ArgsTest] => [name, subcommandExtracts]),
  ["pax", paxReads],
  ...["uudecode", "unshar", "split", "csplit"].map((name): [string, ArgsTest] => [name, always]),
  ...["gunzip", "bunzip2", "unxz", "unzstd", "unlzma", "uncompress", "unlz4"].map((name): [string, ArgsTest] => [name, decompressorWrites]),
  ...["gzip", "bzip2", "xz", "zstd", "lzma", "lz4"].map((name): [string, ArgsTest] => [name, decompresses]),
]);
