import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { generateCode, parseModule } from "magicast";
import { describeThrown, isDataFile } from "@toolgate/host/internal";
import { CliError, exitCodes } from "../cli-error.js";
import { defaultExportObject, projectConfigFile, withFinalNewlineOf } from "./add-to-config.js";

type RuleList = "deny" | "ask" | "allow";
export type Permissions = Readonly<Record<RuleList, readonly string[]>>;

/** What was written: the config file, and each rule added (a rule already there is not added twice). */
export interface PermissionsUpdate {
  path: string;
  created: boolean;
  added: { list: RuleList; rule: string }[];
}

const lists: readonly RuleList[] = ["deny", "ask", "allow"];

/**
 * Adds rules to `permissions` in the project's toolgate config: a JSON or YAML file as data (YAML through
 * the `yaml` package's document, so comments stay), a module through magicast (as `toolgate add` edits
 * `plugins`); with no config, creates `toolgate.config.json`.
 */
export async function addPermissionsToConfig(cwd: string, permissions: Permissions): Promise<PermissionsUpdate> {
  let path = projectConfigFile(cwd);
  if (path === undefined) {
    path = join(cwd, "toolgate.config.json");
    const added = newRules({}, permissions);
    await writeFile(path, `${JSON.stringify({ permissions: listsOf(added) }, null, 2)}\n`, { flag: "wx" });
    return { path, created: true, added };
  }
  const text = await readFile(path, "utf8");
  const fail = (reason: string) => new CliError(`cannot edit ${path}: ${reason}; add the rules to its permissions yourself`, exitCodes.failure);
  const edit = /\.json$/i.test(path) ? editJson : isDataFile(path) ? editYaml : editModule;
  const { code, added } = await edit(text, permissions, fail, path);
  if (added.length > 0) await writeFile(path, code);
  return { path, created: false, added };
}

type Edit = (
  text: string,
  permissions: Permissions,
  fail: (reason: string) => Error,
  path: string,
) => Promise<{ code: string; added: { list: RuleList; rule: string }[] }>;

/** The rules of `permissions` that `existing` does not hold yet, in list order. */
function newRules(existing: Partial<Record<RuleList, unknown>>, permissions: Permissions): { list: RuleList; rule: string }[] {
  const added: { list: RuleList; rule: string }[] = [];
  for (const list of lists) {
    const have = Array.isArray(existing[list]) ? (existing[list] as unknown[]) : [];
    for (const rule of permissions[list])
      if (!have.includes(rule) && !added.some((entry) => entry.list === list && entry.rule === rule)) added.push({ list, rule });
  }
  return added;
}

function listsOf(added: readonly { list: RuleList; rule: string }[]): Partial<Record<RuleList, string[]>> {
  const result: Partial<Record<RuleList, string[]>> = {};
  for (const { list, rule } of added) (result[list] ??= []).push(rule);
  return result;
}

const editJson: Edit = async (text, permissions, fail) => {
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    throw fail(`it is not valid JSON (${describeThrown(error)})`);
  }
  const config = objectOrFail(document, "the file", fail);
  const current = objectOrFail((config.permissions ??= {}), "its permissions", fail);
  const added = newRules(current, permissions);
  for (const { list, rule } of added) ((current[list] ??= []) as unknown[]).push(rule);
  const indent = /\n([ \t]+)"/.exec(text)?.[1] ?? "  ";
  return { code: withFinalNewlineOf(text, `${JSON.stringify(config, null, indent)}\n`), added };
};

const editYaml: Edit = async (text, permissions, fail) => {
  const { parseDocument, isMap, isSeq } = await import("yaml");
  const document = parseDocument(text);
  if (document.errors.length > 0) throw fail(`it is not valid YAML (${document.errors[0]!.message})`);
  if (document.contents !== null && !isMap(document.contents)) throw fail("it does not hold a mapping");
  const current = (document.getIn(["permissions"]) ?? undefined) as unknown;
  if (current !== undefined && !isMap(current)) throw fail("its permissions is not a mapping");
  const existing: Partial<Record<RuleList, unknown>> = {};
  for (const list of lists) {
    const node = document.getIn(["permissions", list]);
    if (node !== undefined && !isSeq(node)) throw fail(`its permissions.${list} is not a list`);
    existing[list] = isSeq(node) ? node.items.map((item) => (item as { value?: unknown }).value ?? item) : [];
  }
  const added = newRules(existing, permissions);
  for (const { list, rule } of added) {
    if (document.getIn(["permissions", list]) === undefined) document.setIn(["permissions", list], document.createNode([]));
    document.addIn(["permissions", list], rule);
  }
  return { code: document.toString(), added };
};

const editModule: Edit = async (text, permissions, fail, path) => {
  let module: ReturnType<typeof parseModule>;
  try {
    module = parseModule(text, { sourceFileName: path });
  } catch (error) {
    throw fail(describeThrown(error));
  }
  const config = defaultExportObject(module) as (Record<string, unknown> & { $type: string }) | undefined;
  if (config === undefined) throw fail("its default export is not an object literal or defineConfig({ ... })");
  config.permissions ??= {};
  const current = config.permissions as Record<string, unknown> & { $type?: string };
  if (current.$type !== "object") throw fail("its permissions value is not an object literal");
  const existing: Partial<Record<RuleList, unknown>> = {};
  for (const list of lists) {
    const value = current[list] as ({ $type?: string; length: number } & Record<number, unknown>) | undefined;
    if (value !== undefined && value.$type !== "array") throw fail(`its permissions.${list} is not an array literal`);
    existing[list] = value === undefined ? [] : Array.from({ length: value.length }, (_, index) => value[index]);
  }
  const added = newRules(existing, permissions);
  for (const { list, rule } of added) {
    current[list] ??= [];
    (current[list] as { push(rule: string): number }).push(rule);
  }
  return { code: withFinalNewlineOf(text, generateCode(module).code), added };
};

function objectOrFail(value: unknown, what: string, fail: (reason: string) => Error): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value)) throw fail(`${what} is not an object`);
  return value as Record<string, unknown>;
}
