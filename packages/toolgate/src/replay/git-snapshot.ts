import { spawn } from "node:child_process";
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
  const commit = (await git(cwd, ["rev-parse", "--verify", "--quiet", `${ref}^{commit}`])).trim();
  const prefix = (await git(cwd, ["rev-parse", "--show-prefix"])).trim();
  const root = mkdtempSync(join(realpathSync(tmpdir()), "toolgate-policy-"));
  const dir = join(root, relative(parse(cwd).root, cwd));
  try {
    mkdirSync(dir, { recursive: true });
    await extractTree(cwd, `${commit}:${prefix}`, dir);
    linkNodeModules(cwd, root);
  } catch (error) {
    rmSync(root, { recursive: true, force: true });
    if (error instanceof CliError) throw new CliError(`${ref}: ${error.message}`, exitCodes.usage);
    throw error;
  }
  return { dir, commit, remove: () => rmSync(root, { recursive: true, force: true }) };
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
function extractTree(cwd: string, tree: string, dir: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const archive = spawn("git", ["archive", "--format=tar", tree], { cwd, stdio: ["ignore", "pipe", "pipe"] });
    const tar = spawn("tar", ["-x", "-f", "-", "-C", dir], { stdio: ["pipe", "ignore", "pipe"] });
    let errors = "";
    archive.stderr.on("data", (chunk: Buffer) => (errors += chunk.toString()));
    tar.stderr.on("data", (chunk: Buffer) => (errors += chunk.toString()));
    archive.stdout.pipe(tar.stdin);
    archive.on("error", reject);
    tar.on("error", reject);
    let archiveCode: number | null = null;
    archive.on("close", (code) => (archiveCode = code));
    tar.on("close", (code) => {
      if (archiveCode === 0 && code === 0) resolve();
      else reject(new CliError(`cannot copy ${tree} out of git: ${errors.trim() || `git archive exited ${archiveCode}, tar ${code}`}`, exitCodes.usage));
    });
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
      else reject(new CliError(errors.trim() || `not a commit in the git repository at ${cwd}`, exitCodes.usage));
    });
  });
}
