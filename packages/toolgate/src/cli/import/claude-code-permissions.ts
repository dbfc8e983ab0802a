import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { isPlainObject } from "@toolgate/plugin-sdk/host";
import { ruleSyntaxError } from "@toolgate/host/internal";
import { CliError, exitCodes } from "../cli-error.js";

export type RuleList = "deny" | "ask" | "allow";
const lists: readonly RuleList[] = ["deny", "ask", "allow"];

/** The rules found, those toolgate cannot read (with why), and the settings read from where. */
export interface ClaudeCodePermissions {
  readonly files: readonly string[];
  readonly rules: Readonly<Record<RuleList, readonly string[]>>;
  readonly skipped: readonly { readonly list: RuleList; readonly rule: string; readonly reason: string }[];
  /** Keys of `permissions` that are not rules (`defaultMode`, `additionalDirectories`): not toolgate's to copy. */
  readonly notRules: readonly string[];
}

// The project's shared settings, then the user's own for this project (Claude Code reads both).
const settingsFiles = [".claude/settings.json", ".claude/settings.local.json"];

/** A project's Claude Code permission rules, from its `.claude/settings.json` and `.claude/settings.local.json`. */
export function readClaudeCodePermissions(projectDir: string): ClaudeCodePermissions {
  const files: string[] = [];
  const rules: Record<RuleList, string[]> = { deny: [], ask: [], allow: [] };
  const skipped: { list: RuleList; rule: string; reason: string }[] = [];
  const notRules = new Set<string>();
  for (const file of settingsFiles) {
    const path = join(projectDir, file);
    if (!existsSync(path)) continue;
    files.push(path);
    const permissions = permissionsIn(path);
    for (const key of Object.keys(permissions)) if (!lists.includes(key as RuleList)) notRules.add(key);
    for (const list of lists) {
      for (const rule of rulesIn(permissions, list, path)) {
        const reason = ruleSyntaxError(rule);
        if (reason !== undefined) skipped.push({ list, rule, reason });
        else if (!rules[list].includes(rule)) rules[list].push(rule);
      }
    }
  }
  if (files.length === 0) throw new CliError(`no Claude Code settings in ${projectDir} (looked for ${settingsFiles.join(" and ")})`, exitCodes.usage);
  return { files, rules, skipped, notRules: [...notRules] };
}

function permissionsIn(path: string): Record<string, unknown> {
  let document: unknown;
  try {
    document = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new CliError(`${path} is not valid JSON (${(error as Error).message})`, exitCodes.usage);
  }
  if (!isPlainObject(document)) throw new CliError(`${path} must hold a JSON object`, exitCodes.usage);
  const permissions = (document as Record<string, unknown>).permissions;
  if (permissions === undefined) return {};
  if (!isPlainObject(permissions)) throw new CliError(`${path}: permissions must be an object`, exitCodes.usage);
  return permissions as Record<string, unknown>;
}

function rulesIn(permissions: Record<string, unknown>, list: RuleList, path: string): string[] {
  const value = permissions[list];
  if (value === undefined) return [];
  if (!Array.isArray(value) || !value.every((rule) => typeof rule === "string"))
    throw new CliError(`${path}: permissions.${list} must be a list of rule strings`, exitCodes.usage);
  return value as string[];
}
