import { mountOption, pathsWrittenBy, stdinTexts, volumeMount, writesNoFile, type Invocation } from "@toolgate/shell";
import { patchedFiles } from "./patch-files.js";
import type { Reach } from "./protected-paths.js";

type Add = (raw: string, reach: Reach, unnamed?: true) => void;

/**
 * What a command the protection has no model of may change: it is not known to leave files alone, so
 * every path it names may be written (`sort -o toolgate.config.json`, `curl -o plugins/x.mjs`,
 * `tar -xf a.tar -C plugins`), each as a folder too; and the programs that write where they name no
 * path (an archive unpacked, a patch applied, a download named by its URL) change the whole folder they
 * write into. A program that only reads is refused when it names the policy: the protection cannot tell
 * reading from writing for a program it does not know.
 */
export function unmodelledChanges(invocation: Invocation, add: Add): void {
  if (writesNoFile(invocation) || readOnly.has(invocation.name) || interpreters.has(invocation.name)) return;
  for (const path of pathsWrittenBy(invocation.args)) add(path, "exact");
  for (const path of attachedValues(invocation.args)) add(path, "exact");
  for (const path of decompressedNames(invocation)) add(path, "exact");
  for (const path of downloadedNames(invocation)) add(path, "exact");
  for (const path of readPatchNames(invocation)) add(path, "exact");
  for (const path of remoteCopyNames(invocation)) add(path, "tree");
  for (const path of writableMounts(invocation)) add(path, "tree");
  const folder = unnamedWritesFolder(invocation);
  if (folder !== undefined) add(folder, "tree", true);
}

/** Programs that read the paths they are given and write none (beyond the reader's list of such programs). */
const readOnly = new Set([
  ...["du", "tree", "bat", "batcat", "xxd", "strings", "nl", "tac", "rev", "paste", "comm", "join", "column", "fold"],
  ...["sha1sum", "sha512sum", "b2sum", "cksum", "sum", "shasum", "md5", "lsattr", "getfacl", "namei", "whereis"],
  // Its paths are mount points (the sandbox's own `--ro-bind` of the policy among them); what it runs is read on its own.
  "bwrap",
]);

/**
 * An interpreter's words are code (read for the files it opens by `sharedInterpreterEffects`) or a
 * program's arguments: what a program file does is not read, named paths or not (`node gen.js`), as the
 * protection's documented limits say; the sandbox's own runner (`node network-runner.mjs … -- bwrap …`) is one.
 */
const interpreters = new Set([
  "node",
  "nodejs",
  "deno",
  "bun",
  "tsx",
  "ts-node",
  "python",
  "python3",
  "python2",
  "pypy3",
  "ruby",
  "perl",
  "php",
  "lua",
  "Rscript",
]);

/** `-ofile.json`, `-Pplugins/`: a short option's value written against it, when it looks like a path. */
function attachedValues(args: readonly string[]): string[] {
  const values: string[] = [];
  for (const arg of args) if (arg.length > 2 && arg[0] === "-" && arg[1] !== "-" && /[./]/.test(arg)) values.push(arg.slice(2));
  return values;
}

const compressedSuffix = /\.(gz|tgz|bz2|tbz2?|xz|txz|zst|lz4|lz|lzma|br|Z)$/;
const decompressors = new Set(["gunzip", "bunzip2", "unxz", "unzstd", "unlzma", "uncompress", "lz4cat"]);
const compressors = new Set(["gzip", "bzip2", "xz", "zstd", "lz4", "lzma", "brotli", "compress", "pigz", "pbzip2"]);

/** `gunzip toolgate.config.json.gz` writes `toolgate.config.json`: the name it was given, its suffix taken off. */
function decompressedNames(invocation: Invocation): string[] {
  const { name, args } = invocation;
  const decompressing = decompressors.has(name) || (compressors.has(name) && args.some((arg) => arg === "--decompress" || /^-[A-Za-z]*d/.test(arg)));
  if (!decompressing) return [];
  return args.filter((arg) => !arg.startsWith("-") && compressedSuffix.test(arg)).map((arg) => arg.replace(compressedSuffix, ""));
}

/**
 * The folder a program that writes where it names no path writes into: the one its option names, else
 * the working folder; undefined when it writes nothing unnamed (a listing, a dry run, an output named).
 */
function unnamedWritesFolder(invocation: Invocation): string | undefined {
  const { name, args } = invocation;
  const writer = unnamedWriters[name];
  if (writer === undefined || !writer.writes(args, invocation)) return undefined;
  return optionValue(args, writer.folderOptions) ?? ".";
}

/** `curl -O https://x/a.json`, `wget https://x/a.json`: each URL's last part, in the folder it downloads into. */
function downloadedNames(invocation: Invocation): string[] {
  const { name, args } = invocation;
  const download = downloads[name];
  if (download === undefined || !download.names(args)) return [];
  const folder = optionValue(args, download.folderOptions) ?? ".";
  return args.filter((arg) => /^[a-z][\w+.-]*:\/\//i.test(arg)).map((url) => `${folder}/${lastPart(url)}`);
}

const sftpValued = new Set(["-B", "-b", "-c", "-D", "-F", "-i", "-J", "-l", "-o", "-P", "-R", "-S", "-X"]);

/** `sftp host:plugins/*`: the remote files fetched into the working folder (or the one named), by their remote names. */
function remoteCopyNames(invocation: Invocation): string[] {
  const { name, args } = invocation;
  if (name !== "sftp") return [];
  const [source, target = "."] = args.filter((arg, index) => !arg.startsWith("-") && !sftpValued.has(args[index - 1] ?? ""));
  if (source === undefined || !/^[^/]*:/.test(source)) return [];
  return [`${target}/${lastPart(source.slice(source.indexOf(":") + 1)) || "*"}`];
}

function lastPart(url: string): string {
  const path = url.replace(/[?#].*$/, "").replace(/\/+$/, "");
  return path.slice(path.lastIndexOf("/") + 1);
}

interface UnnamedWriter {
  writes: (args: readonly string[], invocation: Invocation) => boolean;
  /** Options naming the folder it writes into: `-C dir`, `--directory=dir`, `-odir` (7z). */
  folderOptions: readonly string[];
}

/** A bundle of short options (`-xzf`, or tar's and ar's old dashless first word `xvf`) holding `letter`. */
const bundleHolds = (arg: string | undefined, letter: string, dashless: boolean) =>
  arg !== undefined && (dashless ? /^-?[A-Za-z]+$/ : /^-[A-Za-z]+$/).test(arg) && arg.includes(letter);

const extractsTar = (args: readonly string[]) =>
  (bundleHolds(args[0], "x", true) || args.some((arg) => arg === "--extract" || arg === "--get" || bundleHolds(arg, "x", false))) &&
  !args.some((arg) => arg === "--to-stdout" || bundleHolds(arg, "O", false));
const tar: UnnamedWriter = { writes: extractsTar, folderOptions: ["-C", "--directory"] };
const sevenZip: UnnamedWriter = { writes: (args) => args[0] === "x" || args[0] === "e", folderOptions: ["-o"] };
/** Extractors whose first word is the command: `unrar x a.rar`, `lha e a.lzh`. */
const extractCommand = (folderOptions: readonly string[]): UnnamedWriter => ({ writes: (args) => /^-?[xe]/.test(args[0] ?? ""), folderOptions });
/** Programs that only unpack, wherever they are pointed. */
const unpacker = (folderOptions: readonly string[]): UnnamedWriter => ({
  writes: (args) => !args.some((arg) => /^(-l|--list|-t|--test)$/.test(arg)),
  folderOptions,
});
const cpio: UnnamedWriter = { writes: (args) => args.some((arg) => arg === "--extract" || bundleHolds(arg, "i", false)), folderOptions: ["-D", "--directory"] };

const unnamedWriters: Record<string, UnnamedWriter> = {
  tar,
  gtar: tar,
  bsdtar: tar,
  unzip: { writes: (args) => !args.some((arg) => /^-[A-Za-z]*[lptvZ]/.test(arg)), folderOptions: ["-d"] },
  "7z": sevenZip,
  "7za": sevenZip,
  "7zr": sevenZip,
  "7zz": sevenZip,
  unrar: extractCommand([]),
  rar: extractCommand([]),
  lha: extractCommand(["-w"]),
  arj: extractCommand([]),
  cpio,
  bsdcpio: cpio,
  pax: { writes: (args) => args.some((arg) => bundleHolds(arg, "r", false)) && !args.some((arg) => bundleHolds(arg, "w", false)), folderOptions: [] },
  ar: { writes: (args) => bundleHolds(args[0], "x", true), folderOptions: ["--output"] },
  jar: { writes: (args) => bundleHolds(args[0], "x", true) || args.includes("--extract"), folderOptions: ["--dir"] },
  unar: unpacker(["-o", "-output-directory"]),
  aunpack: unpacker(["-X", "--extract-to"]),
  atool: { writes: (args) => args.some((arg) => arg === "--extract" || bundleHolds(arg, "x", false)), folderOptions: ["-X", "--extract-to"] },
  dtrx: unpacker([]),
  cabextract: unpacker(["-d", "--directory"]),
  unsquashfs: { writes: (args) => !args.some((arg) => /^-(l|ls|ll|lls|s|stat)$/.test(arg)), folderOptions: ["-d", "-dest"] },
  patch: { writes: writesUnreadPatch, folderOptions: ["-d", "--directory"] },
  // A name from the server (`curl -J`, `wget --content-disposition`), or a whole site (`wget -r`).
  // A config file (`curl -K f`) may name outputs too.
  curl: {
    writes: (args) => args.some((arg) => arg === "--remote-header-name" || bundleHolds(arg, "J", false) || arg === "-K" || /^--config(=|$)/.test(arg)),
    folderOptions: ["--output-dir"],
  },
  wget: {
    writes: (args) =>
      args.some(
        (arg) =>
          /^--(recursive|mirror|content-disposition|trust-server-names|input-file)/.test(arg) ||
          bundleHolds(arg, "r", false) ||
          bundleHolds(arg, "m", false) ||
          bundleHolds(arg, "i", false),
      ),
    folderOptions: ["-P", "--directory-prefix"],
  },
  git: { writes: gitWritesUnnamed, folderOptions: [] },
};

const downloads: Record<string, { names: (args: readonly string[]) => boolean; folderOptions: readonly string[] }> = {
  curl: {
    names: (args) => args.some((arg) => arg === "--remote-name" || arg === "--remote-name-all" || bundleHolds(arg, "O", false)),
    folderOptions: ["--output-dir"],
  },
  wget: {
    names: (args) => !args.some((arg) => bundleHolds(arg, "O", false) || arg.startsWith("--output-document") || arg === "--spider"),
    folderOptions: ["-P", "--directory-prefix"],
  },
  aria2c: { names: (args) => !args.some((arg) => arg === "-o" || arg.startsWith("--out")), folderOptions: ["-d", "--dir"] },
  axel: { names: (args) => !args.some((arg) => arg === "-o" || arg.startsWith("--output")), folderOptions: [] },
  // httpie writes a file only with --download, named by the URL unless --output names it.
  http: { names: httpieDownloads, folderOptions: [] },
  https: { names: httpieDownloads, folderOptions: [] },
};

function httpieDownloads(args: readonly string[]): boolean {
  return args.some((arg) => arg === "--download" || arg === "-d") && !args.some((arg) => arg === "-o" || arg.startsWith("--output"));
}

const containerTools = new Set(["docker", "podman", "nerdctl"]);
const mountOptions = new Set(["-v", "--volume", "--mount"]);

/** `docker run -v "$PWD:/w" img …`: a folder mounted writable into a container, where anything may change it. */
function writableMounts(invocation: Invocation): string[] {
  const { name, args } = invocation;
  if (!containerTools.has(name)) return [];
  const sources: string[] = [];
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    const value = mountOptions.has(arg) ? args[++index] : /^(?:-v=?|--volume=|--mount=)(.+)$/.exec(arg)?.[1];
    if (value === undefined) continue;
    // The container reader's own reading of a mount: a read-only or anonymous one gives none, a named volume its name.
    const source = (arg.startsWith("--mount") ? mountOption(value) : volumeMount(value, false))?.source;
    if (source !== undefined) sources.push(source);
  }
  return sources;
}

/** `patch < p.diff`: the files it changes are in a patch text the reader cannot see (one it can see is read). */
function writesUnreadPatch(args: readonly string[], invocation: Invocation): boolean {
  if (args.some((arg) => arg === "--dry-run")) return false;
  return !readablePatch(invocation);
}

/** `patch -p1 <<'EOF' … EOF`: the files a patch the reader can see names, in the folder it patches. */
function readPatchNames(invocation: Invocation): string[] {
  if (invocation.name !== "patch" || !readablePatch(invocation)) return [];
  const folder = optionValue(invocation.args, unnamedWriters.patch!.folderOptions) ?? ".";
  return stdinTexts(invocation).flatMap((text) => patchedFiles(text).map((file) => `${folder}/${file.path}`));
}

function readablePatch(invocation: Invocation): boolean {
  const texts = stdinTexts(invocation);
  return texts.length > 0 && texts.every((text) => patchedFiles(text).length > 0);
}

// git's own options that take the next word (`git -C dir apply`), before its subcommand.
const gitValued = new Set(["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--exec-path"]);

/**
 * git subcommands that write work-tree files they do not name: a patch from a file (`git apply p.diff`,
 * `git am`), and the index written out (`git checkout-index -a`, `git read-tree -u`).
 */
function gitWritesUnnamed(args: readonly string[]): boolean {
  let index = 0;
  while (index < args.length && args[index]!.startsWith("-")) index += gitValued.has(args[index]!) ? 2 : 1;
  const subcommand = args[index];
  const rest = args.slice(index + 1);
  if (subcommand === "apply" || subcommand === "am")
    return !rest.some((arg) => arg === "--check" || arg === "--stat" || arg === "--numstat" || arg === "--summary" || arg === "--cached");
  if (subcommand === "checkout-index") return true;
  return subcommand === "read-tree" && rest.some((arg) => arg === "-u" || /^-[A-Za-z]*u/.test(arg));
}

/** The value of the first of `options` given: `-C dir`, `-Cdir`, `--directory=dir`. */
function optionValue(args: readonly string[], options: readonly string[]): string | undefined {
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    for (const option of options) {
      if (arg === option) return args[index + 1];
      if (option.startsWith("--") ? arg.startsWith(`${option}=`) : arg.startsWith(option) && arg.length > option.length)
        return arg.slice(option.length + (option.startsWith("--") ? 1 : 0));
    }
  }
  return undefined;
}
