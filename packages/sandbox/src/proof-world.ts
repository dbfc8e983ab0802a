import { spawnSync } from "node:child_process";
import { cpSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from "node:fs";
import { createHash } from "node:crypto";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

// Outside /tmp, which the sandbox replaces with a private one: the repository's git-ignored test/.tmp.
export const worlds = join(dirname(fileURLToPath(import.meta.url)), "../../../test/.tmp");

/** A fresh folder for one run under test/.tmp. */
export function freshRoot(prefix: string): string {
  mkdirSync(worlds, { recursive: true });
  return mkdtempSync(join(worlds, prefix));
}

/** A fake home full of sentinel files (dot files, an ssh folder, a nested tree). */
export function fillHome(home: string): void {
  mkdirSync(join(home, ".ssh"), { recursive: true });
  mkdirSync(join(home, "docs/deep"), { recursive: true });
  mkdirSync(join(home, ".npm"), { recursive: true });
  writeFileSync(join(home, ".bashrc"), "# sentinel bashrc\n");
  writeFileSync(join(home, ".profile"), "# sentinel profile\n");
  writeFileSync(join(home, ".ssh/authorized_keys"), "ssh-ed25519 sentinel\n");
  writeFileSync(join(home, "sentinel.txt"), "home sentinel\n");
  writeFileSync(join(home, "docs/deep/thesis.txt"), "years of work\n");
}

/** A project with sources, a toolgate config and a plugins folder. */
export function fillProject(project: string): { config: string; plugins: string } {
  mkdirSync(join(project, "src"), { recursive: true });
  mkdirSync(join(project, "plugins"), { recursive: true });
  writeFileSync(join(project, "src/main.ts"), "export const x = 1;\n");
  writeFileSync(join(project, "README.md"), "# project\n");
  const config = join(project, "toolgate.config.json");
  writeFileSync(config, '{ "plugins": [] }\n');
  return { config, plugins: join(project, "plugins") };
}

/** A sentinel folder beside the project(s). */
export function fillBeside(beside: string): void {
  mkdirSync(join(beside, "nested"), { recursive: true });
  writeFileSync(join(beside, "sentinel.txt"), "beside sentinel\n");
  writeFileSync(join(beside, "nested/data.txt"), "beside data\n");
}

/** Copies the machine's /etc, so the outer wall can offer a writable /etc whose changes the test can see. */
export function copyEtc(target: string): void {
  cpSync("/etc", target, { recursive: true, verbatimSymlinks: true, errorOnExist: false, preserveTimestamps: true });
}

/** Every entry under `root`: path, type, mode, owner, and the content's or link's digest. */
export function snapshot(root: string): Map<string, string> {
  const entries = new Map<string, string>();
  const walk = (path: string) => {
    const stat = lstatSync(path);
    let content = "";
    if (stat.isSymbolicLink()) content = readlinkSync(path);
    else if (stat.isFile()) content = createHash("sha256").update(readFileSync(path)).digest("hex");
    entries.set(path.slice(root.length) || "/", `${stat.mode.toString(8)} ${stat.uid}:${stat.gid} ${stat.size} ${content}`);
    if (stat.isDirectory()) for (const name of readdirSync(path)) walk(join(path, name));
  };
  if (existsSync(root)) walk(root);
  else entries.set("/", "missing");
  return entries;
}

/** What differs between two snapshots, as readable lines ("gone x", "new y", "changed z"). */
export function differences(before: Map<string, string>, after: Map<string, string>): string[] {
  const lines: string[] = [];
  for (const [path, value] of before) {
    const now = after.get(path);
    if (now === undefined) lines.push(`gone ${path}`);
    else if (now !== value) lines.push(`changed ${path}: ${value} → ${now}`);
  }
  for (const path of after.keys()) if (!before.has(path)) lines.push(`new ${path}`);
  return lines;
}

/**
 * The outer wall: the whole machine read-only, a private /tmp and /dev without real devices, every namespace
 * new, and only `writable` (the test's world) writable; `etc` (a copy) stands in for /etc. Large trees the
 * corpus never needs are covered with empty folders so a delete of `/` walks little.
 */
export function outerWall(world: string, etc: string, environment: Record<string, string>): string[] {
  const covered = ["/work", "/root", "/home", "/opt", "/var", "/srv", "/mnt", "/media", "/farm"].flatMap((path) => {
    try {
      return lstatSync(path).isDirectory() ? ["--tmpfs", path] : [];
    } catch {
      return [];
    }
  });
  return [
    "--ro-bind",
    "/",
    "/",
    "--dev",
    "/dev",
    "--proc",
    "/proc",
    "--tmpfs",
    "/tmp",
    ...covered,
    "--bind",
    etc,
    "/etc",
    "--bind",
    world,
    world,
    "--unshare-all",
    "--die-with-parent",
    "--clearenv",
    ...Object.entries(environment).flatMap(([name, value]) => ["--setenv", name, value]),
  ];
}

/** Runs `script` with bash behind the outer wall; `bwrap` and `bash` are absolute paths. */
export function behindWall(bwrap: string, bash: string, wall: readonly string[], script: string, timeoutMs: number) {
  const ran = spawnSync(bwrap, [...wall, "--", bash, "-c", script], { encoding: "utf8", timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024 });
  return { status: ran.status, stdout: ran.stdout ?? "", stderr: ran.stderr ?? "", error: ran.error };
}
