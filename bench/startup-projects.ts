import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/** The project folders the start-up bench runs the CLI in. */
export interface BenchProjects {
  /** No config, no plugins/ folder. */
  empty: string;
  /** plugins/ holds 10 TypeScript plugin files (type annotations, so they need the transpiler). */
  typescript: string;
  /** plugins/ holds 10 plain ESM JavaScript plugin files. */
  javascript: string;
}

const pluginCount = 10;

function pluginSource(index: number, typed: boolean): string {
  const call = typed ? "call: { name: string; args: Record<string, unknown> }" : "call";
  const block = typed ? '"block" as const' : '"block"';
  return [
    typed ? `const pattern: RegExp = /forbidden-${index}/;` : `const pattern = /forbidden-${index}/;`,
    "export default {",
    `  name: "bench-${typed ? "ts" : "js"}-${index}",`,
    "  hooks: {",
    `    pre_tool_call(${call}) {`,
    `      if (pattern.test(String(call.args.command))) return { action: ${block}, message: "forbidden ${index}" };`,
    "    },",
    "  },",
    "};",
    "",
  ].join("\n");
}

function writeProject(dir: string, extension: "ts" | "mjs" | undefined): string {
  mkdirSync(dir, { recursive: true });
  if (extension === undefined) return dir;
  mkdirSync(join(dir, "plugins"));
  for (let index = 0; index < pluginCount; index++)
    writeFileSync(join(dir, "plugins", `plugin-${index}.${extension}`), pluginSource(index, extension === "ts"));
  return dir;
}

export function writeBenchProjects(root: string): BenchProjects {
  return {
    empty: writeProject(join(root, "empty"), undefined),
    typescript: writeProject(join(root, "typescript"), "ts"),
    javascript: writeProject(join(root, "javascript"), "mjs"),
  };
}

/** Claude Code's PreToolUse hook input for a harmless Bash call in `cwd`. */
export function claudeCodeInput(cwd: string): string {
  return JSON.stringify({
    session_id: "bench",
    transcript_path: join(cwd, "transcript.jsonl"),
    cwd,
    hook_event_name: "PreToolUse",
    tool_name: "Bash",
    tool_input: { command: "ls -la" },
  });
}
