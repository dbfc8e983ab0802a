import type { Invocation } from "../invocations.js";
import { letters, names, readArguments, type Grammar, type OptionSpec } from "./options.js";
import { addCode, addUnread, readOptionEffects, type RunnerReading } from "./reading.js";

/**
 * GNU tar (and bsdtar's common options). It runs code through `--checkpoint-action=exec=…`,
 * `--to-command`, `-I`/`--use-compress-program`, `--info-script`/`--new-volume-script`/`-F`,
 * `--rsh-command` and `--rmt-command`, and through rsh for an archive named `host:file`.
 */
const shell: OptionSpec = { arity: "required", runs: "shell" };
const unknownFile: OptionSpec = { arity: "required", runs: "unknown" };

const long = {
  ...names(
    "catenate concatenate create delete diff compare append list update extract get test-label show-defaults help usage version " +
      "check-device no-check-device ignore-failed-read incremental listed-incremental no-seek seek occurrence " +
      "restrict read-full-records ignore-zeros multi-volume keep-old-files keep-newer-files skip-old-files keep-directory-symlink overwrite overwrite-dir no-overwrite-dir " +
      "recursive-unlink remove-files unlink-first to-stdout sparse verify preserve-permissions same-permissions no-same-permissions preserve-order same-order preserve " +
      "same-owner no-same-owner numeric-owner delay-directory-restore no-delay-directory-restore " +
      "absolute-names dereference hard-dereference one-file-system one-top-level auto-compress no-auto-compress " +
      "gzip gunzip ungzip bzip2 xz lzip lzma lzop zstd compress uncompress " +
      "force-local no-ignore-case ignore-case anchored no-anchored wildcards no-wildcards wildcards-match-slash no-wildcards-match-slash " +
      "recursion no-recursion null no-null unquote no-unquote verbatim-files-from no-verbatim-files-from exclude-vcs exclude-vcs-ignores exclude-backups exclude-caches exclude-caches-all exclude-caches-under " +
      "totals verbose interactive confirmation block-number index-file utc full-time show-omitted-dirs show-transformed-names show-stored-names " +
      "check-links no-xattrs xattrs acls no-acls selinux no-selinux clamp-mtime sparse-version posix old-archive portability " +
      "ignore-command-error no-ignore-command-error warning restrict no-unquote",
    "file blocking-factor record-size directory files-from exclude exclude-from exclude-tag exclude-tag-all exclude-tag-under exclude-ignore exclude-ignore-recursive " +
      "owner group mode mtime newer after-date newer-mtime starting-file strip-components suffix tape-length label format " +
      "transform xform quoting-style quote-chars no-quote-chars add-file backup owner-map group-map atime-preserve pax-option " +
      "xattrs-include xattrs-exclude volno-file sparse-version level",
    "one-top-level index-file backup occurrence atime-preserve checkpoint totals",
  ),
  checkpoint: { arity: "optional" },
  "checkpoint-action": { arity: "required" },
  "to-command": shell,
  "use-compress-program": shell,
  "rsh-command": shell,
  "rmt-command": shell,
  "info-script": unknownFile,
  "new-volume-script": unknownFile,
} satisfies Record<string, OptionSpec>;

const grammar: Grammar = {
  program: "tar",
  abbreviate: true,
  short: {
    ...letters("AcdrtuxGgkmOpsSvwWBiMRlhPjJzZaUnoe", "fbCTXKLNVHgE"),
    I: shell,
    F: unknownFile,
  },
  long,
};

// The old style `tar xzf a.tgz`: a first word without a dash is a cluster whose valued letters take the next words in order.
const oldStyleValued = new Set("fbCTXKLNVHgIF");

export function readTar(invocation: Invocation, reading: RunnerReading): void {
  const args = oldStyle(invocation.args);
  const read = readArguments(args, grammar);
  const found = readOptionEffects(read, "tar");
  reading.scripts.push(...found.scripts);
  reading.problems.push(...found.problems);
  let forceLocal = false;
  let verbatim = false;
  for (const option of read.options) {
    if (option.name === "--force-local") forceLocal = true;
    if (option.name === "--verbatim-files-from") verbatim = true;
  }
  for (const option of read.options) {
    if (option.name === "--checkpoint-action" && option.value !== undefined) readCheckpointAction(option.value, reading);
    // GNU tar reads a line of a `-T` list that starts with `-` as an option, unless told not to.
    if ((option.name === "-T" || option.name === "--files-from") && option.value !== "/dev/null" && !verbatim)
      addUnread(reading, "tar -T", `options that ${option.value} may hold (add --verbatim-files-from)`);
    // `tar -cf user@host:/x`: tar reaches the archive through rsh, a program this reader does not follow.
    if ((option.name === "-f" || option.name === "--file") && !forceLocal && /^[^/]*:/.test(option.value ?? ""))
      addUnread(reading, "tar -f", `a remote shell to reach ${option.value}`);
  }
}

/** `exec=CMD` runs CMD through the shell; the other actions print, sleep or wait. */
function readCheckpointAction(action: string, reading: RunnerReading): void {
  if (action.startsWith("exec")) {
    if (action[4] === "=") addCode(reading, action.slice(5), "tar --checkpoint-action=exec");
    else reading.problems.push(`tar: the checkpoint action ${action} is not one this reader has read`);
    return;
  }
  if (!/^(bell|dot|\.|echo|echo=.*|sleep=\d+|totty=.*|ttyout=.*|wait=.*)$/s.test(action))
    reading.problems.push(`tar: the checkpoint action ${action} is not one this reader has read`);
}

/** Rewrites `tar xzf a.tgz b` as `tar -x -z -f a.tgz b`, the way tar reads a first word without a dash. */
function oldStyle(args: readonly string[]): readonly string[] {
  const first = args[0];
  if (first === undefined || first.startsWith("-") || !/^[A-Za-z]+$/.test(first)) return args;
  const rewritten: string[] = [];
  let next = 1;
  for (const letter of first) {
    if (oldStyleValued.has(letter)) {
      rewritten.push(`-${letter}`, args[next] ?? "");
      next++;
    } else rewritten.push(`-${letter}`);
  }
  return [...rewritten, ...args.slice(next)];
}
