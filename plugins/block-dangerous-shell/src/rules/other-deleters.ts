import { posix } from "node:path";
import { unwrap } from "@toolgate/shell";
import { positionals } from "./rule.js";

/**
 * Deletes made by commands that are not `rm` or `find`: archivers that delete what they archived
 * (`tar --remove-files`, `zip -m`, `7z a -sdel`), `rsync` deleting in its destination (`--delete…`) or its
 * sources (`--remove-source-files`), `rclone sync/move/purge/delete` on local paths, secure deleters (`srm -r`, `wipe -r`),
 * trash commands (`trash-put`, `gio trash`), and npm deleters (`rimraf`, `del-cli`, `trash-cli`, `shx rm -r`),
 * also when `npx`, `pnpm dlx`, `yarn dlx`, `bunx` or `npm exec` fetch them.
 */
export interface Removal {
  targets: string[];
  /** `-f`/`--force` (or a delete that never asks, like `find -delete`): the outside-project rules apply to these. */
  force: boolean;
  /** A find whose expression narrows what it deletes to some of the files (by name, path, age, …). */
  filtered?: boolean;
  /** A find whose expression narrows what it deletes, whatever the action. */
  narrowed?: boolean;
}

// npm packages whose command deletes its operands recursively, without asking.
const npmDeleters = new Set(["rimraf", "del", "del-cli", "trash", "trash-cli", "rm-rf", "rmrf", "premove", "rimraf-cli"]);
const sevenZip = new Set(["7z", "7za", "7zr", "7zz"]);

/** The removal an archiver, rsync or npm deleter makes; `readRm` reads `shx rm …`. */
export function removedByOtherTool(name: string, args: readonly string[], readRm: RmReader): Removal | undefined {
  switch (name) {
    case "tar":
    case "gtar":
    case "bsdtar":
      return removedByTar(args);
    case "zip":
      return removedByZip(args);
    case "rsync":
      return removedByRsync(args);
    case "npm":
      return removedByNpmExec(args, readRm);
    case "shx":
      return args[0] === "rm" ? removedByShx(args.slice(1), readRm) : undefined;
    case "rclone":
      return removedByRclone(args);
    case "deno": {
      // `deno run -A npm:rimraf /`: the npm package's command, with the words after it.
      const at = args[0] === "run" ? args.findIndex((arg) => arg.startsWith("npm:")) : -1;
      return at === -1 ? undefined : npmDeleter(args[at]!.slice(4), args.slice(at + 1), readRm);
    }
    case "srm":
    case "wipe":
      return removedBySecureDeleter(args);
    case "trash-put":
    case "gvfs-trash":
      return wholeOperands(args);
    case "gio":
      return args[0] === "trash" ? wholeOperands(args.slice(1)) : undefined;
    default:
      if (sevenZip.has(name)) return removedBy7z(args);
      return npmDeleter(name, args, readRm);
  }
}

export type RmReader = (args: readonly string[]) => { recursive: boolean; force: boolean; operands: string[] };

/** `rimraf x`, `del-cli x`, `trash x`, `rimraf@5 x` (as npx names it): every operand is deleted, recursively, without asking. */
function npmDeleter(name: string, args: readonly string[], readRm: RmReader): Removal | undefined {
  // Every command name comes here: most have no `@`, so the pattern need not run.
  const bare = name.indexOf("@", 1) === -1 ? name : name.replace(/(?<=.)@[^/]*$/, "");
  if (bare === "shx") return args[0] === "rm" ? removedByShx(args.slice(1), readRm) : undefined;
  if (!npmDeleters.has(bare)) return undefined;
  const operands = positionals(args);
  return operands.length === 0 ? undefined : { targets: operands, force: true };
}

/** `srm -r x`, `wipe -rf x`: overwrite, then delete, each file under the operands when told to recurse. */
function removedBySecureDeleter(args: readonly string[]): Removal | undefined {
  const recursive = args.some((arg) => arg === "--recursive" || /^-[A-Za-z]*[rR]/.test(arg));
  return recursive ? wholeOperands(args) : undefined;
}

/** `trash-put x`, `gio trash x`: each operand goes whole, folders with all they hold, without asking. */
function wholeOperands(args: readonly string[]): Removal | undefined {
  const operands = positionals(args);
  return operands.length === 0 ? undefined : { targets: operands, force: true };
}

function removedByShx(args: readonly string[], readRm: RmReader): Removal | undefined {
  const { recursive, force, operands } = readRm(args);
  return recursive ? { targets: operands, force } : undefined;
}

/** `npm exec -- rimraf /`, `npm x rimraf /`, `npm exec --package=rimraf -- rimraf /`: the command npm fetches and runs. */
function removedByNpmExec(args: readonly string[], readRm: RmReader): Removal | undefined {
  if (args[0] !== "exec" && args[0] !== "x") return undefined;
  let index = 1;
  while (index < args.length && args[index]!.startsWith("-")) {
    if (args[index] === "--") {
      index++;
      break;
    }
    index += args[index] === "--package" || args[index] === "-p" || args[index] === "-c" || args[index] === "--call" ? 2 : 1;
  }
  const inner = unwrap(args.slice(index));
  if (inner.name === "") return undefined;
  return removedByOtherTool(inner.name, inner.args, readRm);
}

const tarValued = new Set([
  "-f",
  "--file",
  "-C",
  "--directory",
  "-T",
  "--files-from",
  "-X",
  "--exclude-from",
  "--exclude",
  "-b",
  "--blocking-factor",
  "-H",
  "--format",
  "-V",
  "--label",
  "-g",
  "--listed-incremental",
  "-N",
  "--newer",
  "--after-date",
  "-I",
  "--use-compress-program",
  "-L",
  "--tape-length",
  "--owner",
  "--group",
  "--mode",
  "--mtime",
  "--transform",
  "--xform",
  "-K",
  "--starting-file",
]);

/** `tar --remove-files -czf x.tgz src`: deletes each file it archived; `-C dir` moves where later names are read. */
function removedByTar(args: readonly string[]): Removal | undefined {
  if (!args.some((arg) => arg === "--remove-files")) return undefined;
  const targets: string[] = [];
  let folder: string | undefined;
  let options = true;
  // Old-style first word (`tar czf x.tgz …`): a cluster of letters without a dash, whose `f` takes a value.
  let pendingValues = 0;
  let start = 0;
  if (args[0] !== undefined && /^[A-Za-z]+$/.test(args[0]) && /[crutx]/.test(args[0])) {
    pendingValues = (args[0].match(/[fCTXbgNHVLK]/g) ?? []).length;
    start = 1;
  }
  for (let index = start; index < args.length; index++) {
    const arg = args[index]!;
    if (pendingValues > 0) {
      pendingValues--;
      continue;
    }
    if (options && arg === "--") options = false;
    else if (options && (arg === "-C" || arg === "--directory")) folder = joinFolder(folder, args[++index] ?? "");
    else if (options && arg.startsWith("--directory=")) folder = joinFolder(folder, arg.slice("--directory=".length));
    else if (options && tarValued.has(arg)) index++;
    else if (options && /^-[A-Za-z]+$/.test(arg)) {
      // `-czf x.tgz`: a letter that takes a value at the end of the cluster takes the next word.
      const last = arg[arg.length - 1]!;
      if ("fCTXbgNHVLK".includes(last)) {
        if (last === "C") folder = joinFolder(folder, args[index + 1] ?? "");
        index++;
      }
    } else if (!options || !arg.startsWith("-")) targets.push(folder === undefined || /^[/~$]/.test(arg) ? arg : posix.join(folder, arg));
  }
  return targets.length === 0 ? undefined : { targets, force: true };
}

function joinFolder(folder: string | undefined, next: string): string {
  if (folder === undefined || /^[/~$]/.test(next)) return next;
  return posix.join(folder, next);
}

/** `zip -m a.zip src` (`-rm`, `--move`): deletes what it put into the archive. */
function removedByZip(args: readonly string[]): Removal | undefined {
  const moves = args.some((arg) => arg === "--move" || (/^-[A-Za-z0-9]+$/.test(arg) && arg.includes("m")));
  if (!moves) return undefined;
  const words: string[] = [];
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    // `-x`/`-i` take a list of patterns to the end; the others one value.
    if (/^-(x|i|-exclude|-include)$/.test(arg)) break;
    if (/^-([bnPOZst]|tt|-temp-path|-suffixes|-password|-out|-compression-method)$/.test(arg)) index++;
    else if (!arg.startsWith("-")) words.push(arg);
  }
  const [, ...sources] = words;
  return sources.length === 0 ? undefined : { targets: sources, force: true };
}

/** `7z a -sdel x.7z src`: deletes the files after compressing them. */
function removedBy7z(args: readonly string[]): Removal | undefined {
  if (!args.some((arg) => arg.toLowerCase() === "-sdel")) return undefined;
  const [, , ...sources] = positionals(args);
  return sources.length === 0 ? undefined : { targets: sources, force: true };
}

const rcloneDeletes: Record<string, "destination" | "source" | "each"> = {
  sync: "destination",
  bisync: "destination",
  move: "source",
  moveto: "source",
  purge: "each",
  delete: "each",
  deletefile: "each",
  rmdirs: "each",
};

/**
 * `rclone sync src dst` deletes in the destination what the source lacks, `rclone move` empties the
 * source, `rclone purge/delete/rmdirs` delete their path. Remotes (`name:path`) are skipped; local paths count.
 */
function removedByRclone(args: readonly string[]): Removal | undefined {
  const operands = positionals(
    args.filter((arg) => !arg.startsWith("--") || !arg.includes("=")),
    rcloneValued,
  );
  const [command, ...paths] = operands;
  const which = command === undefined ? undefined : rcloneDeletes[command];
  if (which === undefined || args.some((arg) => arg === "--dry-run" || arg === "-n" || arg === "--interactive" || arg === "-i")) return undefined;
  const chosen = which === "destination" ? paths.slice(-1) : which === "source" ? paths.slice(0, 1) : paths;
  const targets = chosen.filter((path) => !/^[\w-]+:/.test(path));
  return targets.length === 0 ? undefined : { targets, force: true };
}

const rcloneValued = [
  "--config",
  "--exclude",
  "--include",
  "--filter",
  "--exclude-from",
  "--include-from",
  "--filter-from",
  "--log-file",
  "--backup-dir",
  "--suffix",
  "--transfers",
  "--checkers",
  "--bwlimit",
  "--max-age",
  "--min-age",
  "--max-size",
  "--min-size",
  "--log-level",
];

const rsyncValued = new Set(
  "-e --rsh -f --filter --exclude --include --exclude-from --include-from --files-from --log-file -T --temp-dir --partial-dir --backup-dir --compare-dest --link-dest --copy-dest -B --block-size --port --bwlimit --chmod --chown --timeout --max-size --min-size --max-delete --suffix --password-file -M --remote-option --out-format --info --debug --usermap --groupmap --iconv --protocol --rsync-path --sockopts --log-file-format --skip-compress --contimeout --address".split(
    " ",
  ),
);
const remote = /^(rsync:\/\/|[^/]*::?)/;

/**
 * `rsync --delete src/ dest/` deletes what is in the destination but not in the source (the destination
 * itself when the source is empty); `--remove-source-files` deletes the files it sent. Remote places
 * (`host:path`, `rsync://…`) are another machine's business.
 */
function removedByRsync(args: readonly string[]): Removal | undefined {
  const deletes = args.some((arg) => /^--(delete(-(before|during|after|delay|excluded|missing-args))?|del)$/.test(arg));
  const removesSources = args.includes("--remove-source-files");
  if (!deletes && !removesSources) return undefined;
  // `-n`/`--dry-run`/`--list-only` only say what would happen.
  if (args.some((arg) => arg === "--dry-run" || arg === "--list-only" || (/^-[A-Za-z0-9]+$/.test(arg) && arg.includes("n")))) return undefined;
  const operands = positionals(args, [...rsyncValued]);
  if (operands.length < 2) return undefined;
  const destination = operands[operands.length - 1]!;
  const sources = operands.slice(0, -1);
  const targets = [...(deletes ? [destination] : []), ...(removesSources ? sources : [])].filter((path) => !remote.test(path));
  return targets.length === 0 ? undefined : { targets, force: true };
}
