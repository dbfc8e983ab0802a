import type { ToolArgs } from "@toolgate/plugin-sdk";
import { isPathKey } from "../policies/rule-subjects.js";
import { patchedFiles } from "./patch-files.js";
import type { Reach } from "./protected-paths.js";

/** What a file tool's call would change: its path arguments, the files a patch in it names, and its text. */
export interface FileChanges {
  paths: { raw: string; reach: Reach }[];
  /** The files a patch argument names, with its `+`/`-` lines. */
  patched: { path: string; changedLines: string[] }[];
  /** The whole new content of a file (`content`, `file_text`), when the call carries one. */
  wholeContent: string[];
  /** Every other text argument (`old_string`, `new_string`, `edits[].newText`, …). */
  texts: string[];
}

// Keys a move or copy names its ends by (`move_file`'s `source` and `destination`).
const endKeys = /^(source|destination|target|src|dest|from|to|old_?name|new_?name)$/i;
const wholeContentKeys = new Set(["content", "contents", "file_text", "filetext", "text", "new_content", "newcontent", "data"]);
// Tools that move or delete reach everything under the path they name.
const treeVerbs = /(move|rename|delete|remove|rm|mv|trash|unlink)/i;

/**
 * The changes a call of a file tool (`Write`, `Edit`, `write_file`, `apply_patch`, an MCP filesystem
 * server's `move_file`, an unknown tool of an MCP server) would make. Every argument whose key names a
 * path is a path it may change; nothing is assumed about what the tool does with it beyond its name.
 */
export function fileChanges(toolName: string, args: ToolArgs): FileChanges {
  const found: FileChanges = { paths: [], patched: [], wholeContent: [], texts: [] };
  const reach: Reach = treeVerbs.test(toolName) ? "tree" : "exact";
  visit(args, found, reach, 0);
  return found;
}

function visit(value: unknown, found: FileChanges, reach: Reach, depth: number, key?: string): void {
  if (depth > 4) return;
  if (typeof value === "string") {
    if (key !== undefined && (isPathKey(key) || endKeys.test(key))) found.paths.push({ raw: value, reach });
    else {
      for (const file of patchedFiles(value)) found.patched.push(file);
      if (key !== undefined && wholeContentKeys.has(key.toLowerCase())) found.wholeContent.push(value);
      else found.texts.push(value);
    }
    return;
  }
  if (Array.isArray(value)) {
    for (const element of value) visit(element, found, reach, depth + 1, key);
    return;
  }
  if (typeof value === "object" && value !== null)
    for (const [entryKey, entryValue] of Object.entries(value)) visit(entryValue, found, reach, depth + 1, entryKey);
}
