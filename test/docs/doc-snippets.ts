import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";

/** A fenced block of a Markdown page, where it starts (the fence's line, 1-based) and how it is marked. */
export interface Snippet {
  /** `README.md:89`, as an editor opens it. */
  readonly where: string;
  readonly file: string;
  readonly line: number;
  readonly lang: string;
  readonly code: string;
  /** The HTML comment on the line before the fence: `excerpt`, `tested-by: test/…`, or undefined. */
  readonly marker: string | undefined;
}

/** The languages a reader runs: shell lines and code. Data (json, yaml) and output (text) are not snippets. */
export const shellLangs = new Set(["sh", "bash", "shell", "console"]);
export const codeLangs = new Set(["ts", "typescript", "js", "javascript", "mjs", "mts"]);

/** README.md, docs/**, and the README of every package and example plugin. */
export function docPages(root: string): string[] {
  const pages = ["README.md", ...markdownUnder(root, "docs")];
  for (const folder of ["packages", "plugins"]) {
    for (const entry of readdirSync(join(root, folder), { withFileTypes: true })) {
      if (entry.isDirectory() && readdirSync(join(root, folder, entry.name)).includes("README.md")) pages.push(`${folder}/${entry.name}/README.md`);
    }
  }
  return pages;
}

function markdownUnder(root: string, folder: string): string[] {
  return readdirSync(join(root, folder), { recursive: true, encoding: "utf8" })
    .filter((name) => name.endsWith(".md"))
    .map((name) => relative(root, join(root, folder, name)))
    .sort();
}

const fence = /^(\s*)(`{3,}|~{3,})\s*([\w-]*)/;
const marker = /^\s*<!--\s*(.+?)\s*-->\s*$/;

/** Every fenced block of `file` (relative to `root`). */
export function snippetsOf(root: string, file: string): Snippet[] {
  const lines = readFileSync(join(root, file), "utf8").split("\n");
  const snippets: Snippet[] = [];
  for (let index = 0; index < lines.length; index++) {
    const open = fence.exec(lines[index]!);
    if (!open) continue;
    const close = lines.findIndex((text, at) => at > index && text.trim().startsWith(open[2]!) && text.trim().replace(/[`~]/g, "") === "");
    const end = close === -1 ? lines.length : close;
    const before = index > 0 ? marker.exec(lines[index - 1]!)?.[1] : undefined;
    const line = index + 1;
    snippets.push({ where: `${file}:${line}`, file, line, lang: open[3]!.toLowerCase(), code: lines.slice(index + 1, end).join("\n"), marker: before });
    index = end;
  }
  return snippets;
}
