import { createHost, isToolgateError, type Host, type HostOptions } from "@toolgate/host";
import { definePlugin } from "@toolgate/plugin-sdk";
import { symlinkSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { createTempProject, type TempProject } from "../helpers/temp-project.js";

const fixtures = join(dirname(fileURLToPath(import.meta.url)), "../fixtures");
const hosts: Host[] = [];
const projects: TempProject[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close()));
  for (const project of projects.splice(0)) project.remove();
});

async function open(options: HostOptions): Promise<Host> {
  const host = await createHost({ logger: false, ...options });
  hosts.push(host);
  return host;
}

function project(files: Record<string, string>): TempProject {
  const created = createTempProject(files);
  projects.push(created);
  return created;
}

const thrownBy = (promise: Promise<unknown>) =>
  promise.then(
    () => undefined,
    (error: unknown) => error,
  );

describe("hookTimeoutMs", () => {
  const message = "hookTimeoutMs must be a whole number of milliseconds from 1 to 2147483647, or Infinity for no timeout";

  // 2 ** 31 and larger would become a 1 ms timer in Node: every async hook would time out at once.
  it.each([2 ** 31, 1e12, 0, -1, 1.5, Number.NaN, -Infinity, "5000"])("%s is rejected with the reason", async (value) => {
    const error = await thrownBy(createHost({ logger: false, pluginsDir: false, configFile: false, hookTimeoutMs: value as number }));
    expect(isToolgateError(error) && error.code).toBe("INVALID_OPTIONS");
    expect((error as Error).message).toBe(`createHost(): ${message}`);
  });

  it("the same rule holds in a config file", async () => {
    const dir = project({ "toolgate.config.mjs": "export default { hookTimeoutMs: 2 ** 31 };" }).dir;
    const error = await thrownBy(createHost({ cwd: dir, logger: false }));
    expect((error as Error).message).toMatch(new RegExp(`toolgate\\.config\\.mjs \\(.*\\) is invalid: ${message}`));
  });

  it("1, 2147483647 and Infinity (no timeout) are accepted; under Infinity a slow hook still decides", async () => {
    for (const hookTimeoutMs of [1, 2 ** 31 - 1]) await open({ pluginsDir: false, configFile: false, hookTimeoutMs });
    const slowBlock = definePlugin({
      name: "slow",
      hooks: { pre_tool_call: () => new Promise((resolve) => setTimeout(resolve, 20, { action: "block", message: "took its time" })) },
    });
    const host = await open({ pluginsDir: false, configFile: false, hookTimeoutMs: Infinity, plugins: [slowBlock], tools: { t: { execute: () => "ran" } } });
    expect(await host.callTool({ id: "1", name: "t", args: {} })).toMatchObject({ status: "blocked", content: expect.stringContaining("took its time") });
  });
});

describe("a config file must export a config object", () => {
  it.each([
    ["null", "export default null;", "exports null as its default"],
    ["an array", "export default [];", "exports an array as its default"],
    ["a number", "export default 42;", "exports number as its default"],
    ["a function", "export default () => ({});", "exports function as its default"],
    ["nothing", "export const config = {};", "has no default export"],
  ])("exporting %s is rejected with the real reason, naming the file", async (_, source, reason) => {
    const { dir } = project({ "toolgate.config.mjs": source });
    const error = await thrownBy(createHost({ cwd: dir, logger: false }));
    expect(isToolgateError(error) && error.code).toBe("INVALID_CONFIG");
    expect((error as Error).message).toBe(
      `toolgate.config.mjs (${join(dir, "toolgate.config.mjs")}) ${reason}; it must export a config object: export default defineConfig({ ... })`,
    );
  });

  it("a config whose getter throws is rejected naming the file", async () => {
    const { dir } = project({ "toolgate.config.mjs": "export default { get plugins() { throw new Error('no plugins for you'); } };" });
    await expect(createHost({ cwd: dir, logger: false })).rejects.toThrow(/toolgate\.config\.mjs \(.*\): reading the config threw: no plugins for you/);
  });
});

describe("plugin package.json files fail that plugin only", () => {
  const evil = "export default { name: 'evil', hooks: { pre_tool_call: () => ({ action: 'allow' }) } };";

  it("null, a non-string main, or an entry outside the folder (path or symlink)", async () => {
    const created = project({
      "elsewhere/evil.mjs": evil,
      "plugins/healthy.mjs": "export default { name: 'healthy', hooks: { pre_tool_call: () => ({ action: 'block', message: 'no' }) } };",
      "plugins/null-pkg/package.json": "null",
      "plugins/array-pkg/package.json": "[]",
      "plugins/number-main/package.json": '{ "main": 42 }',
      "plugins/number-main/index.mjs": evil,
      "plugins/number-name/package.json": '{ "name": {}, "main": "index.mjs" }',
      "plugins/number-name/index.mjs": evil,
      "plugins/main-outside/package.json": '{ "main": "../../elsewhere/evil.mjs" }',
      "plugins/exports-outside/package.json": '{ "exports": { ".": { "import": "../../elsewhere/evil.mjs" } } }',
      "plugins/absolute-main/package.json": JSON.stringify({ main: "/placeholder" }),
      "plugins/symlinked/package.json": '{ "main": "entry.mjs" }',
    });
    created.write({ "plugins/absolute-main/package.json": JSON.stringify({ main: created.path("elsewhere/evil.mjs") }) });
    symlinkSync(created.path("elsewhere/evil.mjs"), created.path("plugins/symlinked/entry.mjs"));

    // onPluginError "allow": the healthy plugin decides alone (by default the failures would block every call).
    const host = await open({ cwd: created.dir, onPluginError: "allow", tools: { rm: { execute: () => "deleted" } } });
    const errorOf = (folder: string) => host.plugins.find((record) => record.path?.includes(`/plugins/${folder}`))?.error;
    expect(host.plugins.filter((record) => record.status === "loaded").map((record) => record.name)).toEqual(["healthy"]);
    expect(errorOf("null-pkg")).toMatch(/null-pkg\/package\.json must hold a JSON object, got null/);
    expect(errorOf("array-pkg")).toMatch(/array-pkg\/package\.json must hold a JSON object, got an array/);
    expect(errorOf("number-main")).toMatch(/number-main\/package\.json: "main" must be a string, got number/);
    expect(errorOf("number-name")).toMatch(/number-name\/package\.json: "name" must be a string, got object/);
    expect(errorOf("main-outside")).toMatch(
      /names the entry "\.\.\/\.\.\/elsewhere\/evil\.mjs" resolves to .*elsewhere\/evil\.mjs, outside the package folder/,
    );
    expect(errorOf("exports-outside")).toMatch(/outside the package folder/);
    expect(errorOf("absolute-main")).toMatch(/outside the package folder/);
    expect(errorOf("symlinked")).toMatch(/names the entry "entry\.mjs" resolves to .*symlinked\/entry\.mjs, outside the package folder/);
    expect(await host.callTool({ id: "1", name: "rm", args: {} })).toMatchObject({ status: "blocked", blockedBy: "healthy" });
  });
});

describe("npm plugin names", () => {
  const cwd = join(fixtures, "npm-plugins");

  it.each([
    "toolgate-plugin-npm-demo/../toolgate-plugin-npm-demo",
    "@acme/../toolgate-plugin-npm-demo",
    "@acme/toolgate-plugin-scoped/../../toolgate-plugin-npm-demo",
    "_underscore",
    "a\\..\\toolgate-plugin-npm-demo",
    "toolgate plugin",
  ])("%s is not a package name: that plugin fails, the rest load", async (name) => {
    const host = await open({ cwd, configFile: false, pluginsDir: false, plugins: [name, "@acme/toolgate-plugin-scoped"] });
    expect(host.plugins[0]).toMatchObject({ status: "failed", source: "npm" });
    expect(host.plugins[0]?.error).toContain(`"${name}" is not a valid npm package name (a path must start with "./", "../" or "/")`);
    expect(host.plugins[1]).toMatchObject({ name: "acme-scoped", status: "loaded" });
  });
});

describe("hostile plugin modules on disk", () => {
  it("a module whose export throws from its getters, or is a Proxy, fails alone; the host starts and gates", async () => {
    const { dir } = project({
      "plugins/getters.mjs": "export default { get name() { throw new Error('name says no'); }, hooks: {} };",
      "plugins/proxy.cjs": "module.exports = new Proxy({}, { get() { throw new TypeError('proxy says no'); } });",
      "plugins/proxy-loader.mjs": "import hostile from './proxy.cjs'; export default hostile;",
      "plugins/healthy.mjs": "export default { name: 'healthy', hooks: { pre_tool_call: () => ({ action: 'block', message: 'no' }) } };",
    });
    // onPluginError "allow": the healthy plugin decides alone (by default the failures would block every call).
    const host = await open({ cwd: dir, onPluginError: "allow", tools: { rm: { execute: () => "deleted" } } });
    const byFile = (file: string) => host.plugins.find((record) => record.path?.endsWith(file));
    expect(byFile("getters.mjs")?.error).toMatch(/getters\.mjs: not a valid plugin: reading name threw: name says no$/);
    expect(byFile("proxy-loader.mjs")).toMatchObject({ status: "failed", error: expect.stringContaining("proxy says no") });
    expect(byFile("healthy.mjs")?.status).toBe("loaded");
    expect(await host.callTool({ id: "1", name: "rm", args: {} })).toMatchObject({ status: "blocked", blockedBy: "healthy" });
  });
});
