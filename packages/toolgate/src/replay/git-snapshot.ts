import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, parse, relative } from "node:path";
import { CliError, exitCodes } from "../cli/cli-error.js";

/** The project folder as committed at a git commit, copied into a temporary folder. */
export interface GitSnapshot {
  /** The project folder's copy: the config and the plugins folder as they were at the commit. */
  dir: string;
  commit: string;
  remove(): void;
}

/**
 * Copies the project folder (`cwd` inside its repository) as committed at `ref` into a temporary folder
 * with `git archive`, never touching the work tree or the index. The copy sits at the same path below
 * the temporary folder as the project below `/`, and every `node_modules` on the way up from the
 * project is linked in at its place: the copy's config and plugins resolve packages as the project does.
 */
export async function snapshotAt(ref: string, cwd: string): Promise<GitSnapshot> {
  if (ref.startsWith("-")) throw new CliError(`"${ref}" is not a git ref (it starts with "-")`, exitCodes.usage);
  const commit = await commitOf(ref, cwd);
  const prefix = (await git(cwd, ["rev-parse", "--show-prefix"])).trim();
  // From the top: run in a subfolder, git archive looks for that subfolder inside the tree it is given.
  const top = (await git(cwd, ["rev-parse", "--show-toplevel"])).trim();
  if (prefix !== "")
    await git(top, ["cat-file", "-e", `${commit}:${prefix}`]).catch(() => {
      throw new CliError(`the project folder ${prefix} is not in that commit`, exitCodes.usage);
    });
  const root = mkdtempSync(join(realpathSync(tmpdir()), "toolgate-policy-"));
  const remove = removedAtExit(root);
  const dir = join(root, relative(parse(cwd).root, cwd));
  try {
    mkdirSync(dir, { recursive: true });
    await extractTree(top, `${commit}:${prefix}`, dir);
    linkNodeModules(cwd, root);
  } catch (error) {
    remove();
    throw error;
  }
  return { dir, commit, remove };
}

const liveCopies = new Set<string>();
const exitSignals = { SIGINT: 2, SIGTERM: 15, SIGHUP: 1 } as const;

/**
 * A copy is removed when its user is done, and also when the process ends first: at exit, or on Ctrl-C or
 * a kill, which would otherwise end the process without running any `finally`.
 */
function removedAtExit(root: string): () => void {
  if (liveCopies.size === 0) watchExit();
  liveCopies.add(root);
  return () => {
    liveCopies.delete(root);
    rmSync(root, { recursive: true, force: true });
  };
}

let watching = false;

function watchExit(): void {
  if (watching) return;
  watching = true;
  const removeAll = () => {
    for (const root of liveCopies) rmSync(root, { recursive: true, force: true });
    liveCopies.clear();
  };
  process.on("exit", removeAll);
  for (const [signal, number] of Object.entries(exitSignals))
    process.once(signal, () => {
      removeAll();
      process.exit(128 + number);
    });
}

async function commitOf(ref: string, cwd: string): Promise<string> {
  try {
    return (await git(cwd, ["rev-parse", "--verify", "--quiet", `${ref}^{commit}`])).trim();
  } catch (error) {
    const said = error instanceof CliError && error.message !== "" ? ` (git: ${error.message})` : "";
    throw new CliError(`no file and no git commit by that name in ${cwd}${said}`, exitCodes.usage);
  }
}

function linkNodeModules(cwd: string, root: string): void {
  for (let folder = cwd; ; folder = dirname(folder)) {
    const modules = join(folder, "node_modules");
    const copy = join(root, relative(parse(folder).root, folder), "node_modules");
    if (existsSync(modules) && !existsSync(copy)) symlinkSync(modules, copy, "junction");
    if (dirname(folder) === folder) return;
  }
}

/** `git archive <tree> | tar -x -C <dir>`: modes (executable hooks) and symlinks kept. */
async function extractTree(cwd: string, tree: string, dir: string): Promise<void> {
  const archive = spawn("git", ["archive", "--format=tar", tree], { cwd, stdio: ["ignore", "pipe", "pipe"] });
  const tar = spawn("tar", ["-x", "-f", "-", "-C", dir], { stdio: ["pipe", "ignore", "pipe"] });
  let errors = "";
  archive.stderr.on("data", (chunk: Buffer) => (errors += chunk.toString()));
  tar.stderr.on("data", (chunk: Buffer) => (errors += chunk.toString()));
  archive.stdout.pipe(tar.stdin);
  // Both must have ended: tar may close before git's exit is reported, and either may fail.
  const [archiveCode, tarCode] = await Promise.all([exitOf(archive), exitOf(tar)]);
  if (archiveCode !== 0 || tarCode !== 0)
    throw new CliError(`cannot copy ${tree} out of git: ${errors.trim() || `git archive exited ${archiveCode}, tar ${tarCode}`}`, exitCodes.usage);
}

function exitOf(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", resolve);
  });
}

/** Runs git in `cwd`; its stdout, or a usage error with what git said. */
function git(cwd: string, args: readonly string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn("git", args, { cwd, stdio: ["ignore", "pipe", "pipe"] });
    let out = "";
    let errors = "";
    child.stdout.on("data", (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (errors += chunk.toString()));
    child.on("error", (error) => reject(new CliError(`cannot run git: ${error.message}`, exitCodes.usage)));
    child.on("close", (code) => {
      if (code === 0) resolve(out);
      else reject(new CliError(errors.trim(), exitCodes.usage));
    });
  });
}
