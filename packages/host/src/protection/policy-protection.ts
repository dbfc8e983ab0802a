import { shellCommands, isShellCall, kindOfTool, type PreToolCallDecision, type ToolArgs, type ToolCall } from "@toolgate/plugin-sdk";
import { readFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { posix } from "node:path";
import { analysisEnvironment } from "@toolgate/shell";
import type { HostSettings } from "../settings.js";
import { expandHome } from "../policies/rule-subjects.js";
import { fileChanges, type FileChanges } from "./file-changes.js";
import { policyHome } from "./policy-home.js";
import { type ProtectedHit, ProtectedPaths, type Reach } from "./protected-paths.js";
import { shellChanges, type ShellChanges } from "./shell-changes.js";

// A tool of no known kind whose name says it only reads (`read_text_file`, `list_directory`, `mcp__fs__search_files`).
const readVerbs = /^(read|get|list|search|find|view|show|stat|describe|glob|grep|cat|head|tail|directory_tree|fetch|query|lookup|count|diff)(_|-|$)/i;
// The tool's own name for the folder it runs in (Codex's `workdir`, an MCP shell's `cwd`).
const workdirKeys = ["workdir", "cwd", "working_directory", "dir", "directory"];

/**
 * The built-in check that keeps an agent from changing toolgate's own policy: the config files, the
 * plugins folder, `.toolgate/`, the agents' hook settings, the installed CLI and the npm plugins named
 * in config. It reads what a call would change, through file tools (path arguments, patches) and shell
 * lines (through the shared reader), and answers `block` (or `ask`) for a change that lands there, or
 * that lands somewhere the reader cannot work out while the line names one of those places. Reads stay allowed.
 */
export class PolicyProtection {
  readonly #paths: ProtectedPaths;
  readonly #packages: readonly string[];
  readonly #cwd: string;
  readonly #home: string;
  readonly #action: "block" | "ask";
  /** The temp folder, asked of the OS once (as the permission rules and the guard do): the three read one line alike. */
  #tmp: string | undefined;

  constructor(settings: HostSettings, action: "block" | "ask", home = homedir()) {
    const { entries, names, packages } = policyHome(settings, home);
    this.#paths = new ProtectedPaths(entries, names, settings.cwd);
    this.#packages = packages;
    this.#cwd = settings.cwd;
    this.#home = home;
    this.#action = action;
  }

  /** The decision on a call, or undefined when it changes nothing of the policy. */
  check(call: Pick<ToolCall, "name" | "args" | "kind">): PreToolCallDecision | undefined {
    // A shell for the guard and the rules (`isShellCall`: its kind, its name, input sent to a shell session) is one here, whatever else it says.
    const shell = isShellCall(call);
    const kind = call.kind ?? kindOfTool(call.name);
    if (!shell && (kind === "read" || kind === "web")) return undefined;
    this.#paths.beginCall();
    const cwds = this.#cwdsOf(call.args);
    if (shell) return this.#checkShell(call, cwds);
    if (kind !== "edit" && kind !== "write" && readVerbs.test(verbOf(call.name))) return undefined;
    const fromFiles = this.#checkFiles(call.name, call.args, cwds);
    if (fromFiles !== undefined || kind === "edit" || kind === "write") return fromFiles;
    // Another tool's `command` (an MCP server's shell) is a shell line too.
    return this.#checkShell(call, cwds);
  }

  /** Every field the call runs (`shellCommands`, as the guard and the rules read them), from each folder it may run in. */
  #checkShell(call: Pick<ToolCall, "name" | "args">, cwds: readonly string[]): PreToolCallDecision | undefined {
    for (const { field, command } of shellCommands(call)) {
      // What cannot be read as a line (an unfinished session input, an argv of non-strings) is refused when it names the policy.
      const line = command ?? (JSON.stringify(call.args[field]) || "");
      if (command === undefined) {
        const name = this.#paths.nameIn(line);
        if (name !== undefined) return this.#unknownDecision(`args.${field}`, name);
        continue;
      }
      for (const cwd of cwds) {
        const decision = this.#checkLine(line, cwd);
        if (decision !== undefined) return decision;
      }
    }
    return undefined;
  }

  #checkLine(line: string, cwd: string): PreToolCallDecision | undefined {
    const changes = shellChanges(line, analysisEnvironment({ projectRoot: this.#cwd, home: this.#home, tmp: (this.#tmp ??= tmpdir()), cwd }));
    // The protected name the line holds, looked for once: a long line may have many changes only known at run time.
    let lineName: string | undefined | null = null;
    for (const change of changes.changes) {
      const hit = this.#locate(change.raw, change.cwd, change.reach);
      if (hit === "unknown") {
        if (lineName === null) lineName = this.#paths.nameIn(line);
        if (lineName !== undefined) return this.#unknownDecision(change.command, lineName);
      } else if (hit !== undefined) return change.unnamed ? this.#unnamedDecision(hit, change.command) : this.#decision(hit, change.command);
    }
    const named = this.#namedPackage(changes);
    if (named !== undefined) return named;
    if (changes.unknown.length > 0) {
      const name = this.#paths.nameIn(line);
      if (name !== undefined) return this.#unknownDecision(changes.unknown[0]!, name);
    }
    return undefined;
  }

  #namedPackage(changes: ShellChanges): PreToolCallDecision | undefined {
    for (const { command, spec } of changes.packages) {
      const lower = spec.toLowerCase();
      const names = this.#packages.find((name) => lower === name || lower.startsWith(`${name}@`) || lower.startsWith(`${name}/`));
      const local = /^(\.|\/|~|file:|link:|git\+|git:|github:|https?:|workspace:)/.test(lower) || lower.endsWith(".tgz") || lower.includes("@npm:toolgate");
      if (names !== undefined || local)
        return this.#say(
          `this command would install, replace or remove ${names === undefined ? `a package from ${spec} (which may install under toolgate's name)` : `the package "${names}"`}: \`${command}\`. toolgate protects its own policy (the installed toolgate and the plugins named in its config): a human must make this change, not the agent.`,
        );
    }
    return undefined;
  }

  #checkFiles(toolName: string, args: ToolArgs, cwds: readonly string[]): PreToolCallDecision | undefined {
    const changes = fileChanges(toolName, args);
    const targets: { raw: string; reach: Reach; lines?: string[] }[] =
      changes.patched.length === 0
        ? changes.paths
        : [...changes.paths, ...changes.patched.map((file) => ({ raw: file.path, reach: "exact" as const, lines: file.changedLines }))];
    for (const cwd of cwds)
      for (const target of targets) {
        const hit = this.#locate(target.raw, cwd, target.reach, true);
        if (hit === "unknown" || hit === undefined) continue;
        if (hit.entry.manifest && target.reach === "exact" && this.#keepsManifest(hit.entry.path, changes, target.lines)) continue;
        return this.#decision(hit, `${toolName} ${target.raw}`);
      }
    return undefined;
  }

  /**
   * A file tool's change to a package.json that leaves every line naming toolgate or a configured plugin
   * as it was: its edits name none of them, and a whole new content has the same such lines as the file.
   */
  #keepsManifest(path: string, changes: FileChanges, patchLines: string[] | undefined): boolean {
    if (patchLines !== undefined) return !patchLines.some((line) => this.#namesPackage(line));
    if (changes.texts.length === 0 && changes.wholeContent.length === 0) return false;
    if (changes.texts.some((text) => this.#namesPackage(text))) return false;
    if (changes.wholeContent.length === 0) return true;
    let current = "";
    try {
      current = readFileSync(path, "utf8");
    } catch {
      // No file yet: the new content may name no package.
    }
    const before = this.#packageLines(current);
    return changes.wholeContent.every((content) => sameLines(this.#packageLines(content), before));
  }

  #namesPackage(text: string): boolean {
    const lower = text.toLowerCase();
    return this.#packages.some((name) => lower.includes(name.toLowerCase()));
  }

  #packageLines(text: string): string[] {
    return text
      .split(/\r?\n/)
      .filter((line) => this.#namesPackage(line))
      .map((line) => line.trim().replace(/,$/, ""))
      .sort();
  }

  /**
   * Where a path lands: on a protected entry, nowhere protected, or somewhere only known at run time. A
   * shell's `$X` is unknown; a file tool's path is `literal` (no shell expands it; `~` is read both ways).
   */
  #locate(raw: string, cwd: string | undefined, reach: Reach, literal = false): ProtectedHit | "unknown" | undefined {
    if (raw === "") return undefined;
    const path = expandHome(raw, this.#home);
    if (literal)
      return (
        this.#paths.hit(posix.resolve(cwd ?? this.#cwd, path), reach) ??
        (path === raw ? undefined : this.#paths.hit(posix.resolve(cwd ?? this.#cwd, raw), reach))
      );
    const unknownAt = lastUnknown(path);
    // `hit` folds `.`, `..` and `//` itself (and only when there are some): the two texts are joined as they are.
    if (unknownAt === -1 && (path.startsWith("/") || cwd !== undefined)) return this.#paths.hit(path.startsWith("/") ? path : `${cwd!}/${path}`, reach);
    // Known from some point on only: `$DIR/toolgate.config.ts`, or relative after a `cd` to a folder only known at run time.
    const tail = unknownAt === -1 ? `/${path}` : path.slice(unknownAt);
    if (/(^|\/)\.\.(\/|$)/.test(tail)) return "unknown";
    const normal = posix.normalize(tail);
    if (normal === "" || normal === "/" || normal === "." || normal === "./") return "unknown";
    const known = normal.startsWith("./") ? normal.slice(1) : normal;
    if (/[*?[]/.test(known)) return this.#paths.hitByGlobTail(known, reach, raw) ?? "unknown";
    return this.#paths.hitByTail(known, reach, raw);
  }

  /** The folders a relative path of this call is read from: the host's, and the one the call names, if any. */
  #cwdsOf(args: ToolArgs): string[] {
    const cwds = [this.#cwd];
    for (const key of workdirKeys) {
      const value = args[key];
      if (typeof value !== "string" || value === "" || lastUnknown(value) !== -1) continue;
      const folder = posix.resolve(this.#cwd, expandHome(value, this.#home));
      if (!cwds.includes(folder)) cwds.push(folder);
    }
    return cwds;
  }

  #decision(hit: ProtectedHit, command: string): PreToolCallDecision {
    return this.#say(
      `this call would change ${hit.entry.label} (${hit.entry.path}): \`${command}\`. toolgate protects its own policy: a human must make this change, not the agent. Leave it, or ask the user to make it.`,
    );
  }

  #unnamedDecision(hit: ProtectedHit, command: string): PreToolCallDecision {
    return this.#say(
      `this command writes files it does not name into a folder that holds ${hit.entry.label} (${hit.entry.path}): \`${command}\`. It may replace toolgate's own policy, which a human must change, not the agent. Unpack, patch or download into another folder (\`tar -C dir\`, \`unzip -d dir\`, \`curl -o file\`).`,
    );
  }

  #unknownDecision(command: string, name: string): PreToolCallDecision {
    return this.#say(
      `this command changes a path only known when it runs (\`${command}\`) on a line that names "${name}": it may change toolgate's own policy, which a human must change, not the agent. Name the paths it changes plainly.`,
    );
  }

  #say(message: string): PreToolCallDecision {
    return this.#action === "ask" ? { action: "ask", message } : { action: "block", message };
  }
}

/** The end of the last part of a path only known at run time (`$X`, `${X}`, `$(…)`, a backtick, the reader's unknown mark); -1 when there is none. */
function lastUnknown(path: string): number {
  // Most paths hold none of the marks an unknown part starts with: no scan for them.
  if (!path.includes("$") && !path.includes("`") && !path.includes("\u{F8FF}")) return -1;
  let end = -1;
  for (const match of path.matchAll(/\$\{[^}]*\}|\$\([^)]*\)?|\$[A-Za-z_][A-Za-z_0-9]*|\$[0-9@*#?!$-]?|`[^`]*`?|\u{F8FF}/gu))
    end = match.index + match[0].length;
  return end;
}

function verbOf(toolName: string): string {
  // Most names hold no `__`: no array for them.
  if (!toolName.includes("__")) return toolName;
  const parts = toolName.split("__");
  return parts[parts.length - 1] ?? toolName;
}

function sameLines(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((line, index) => line === b[index]);
}
