import { createHost, isToolgateError, type Host, type HostOptions, type PluginRecord } from "@toolgate/host";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { createTempProject } from "../helpers/temp-project.js";

const fixtures = join(dirname(fileURLToPath(import.meta.url)), "../fixtures");
const hosts: Host[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close()));
});

async function open(options: HostOptions): Promise<Host> {
  const host = await createHost({ logger: false, ...options });
  hosts.push(host);
  return host;
}

const byName = (plugins: readonly PluginRecord[]) => Object.fromEntries(plugins.map((plugin) => [plugin.name, plugin]));

describe("folder discovery", () => {
  it("loads module files and plugin folders directly in plugins/, skipping hidden, tests, .d.ts and node_modules", async () => {
    const host = await open({ cwd: join(fixtures, "folder-discovery") });
    expect(host.plugins.map((plugin) => [plugin.name, plugin.status, plugin.source])).toEqual([
      ["index-only", "loaded", "folder"],
      ["pkg-exports-named", "loaded", "folder"],
      ["pkg-main-cjs", "loaded", "folder"],
      ["pkg-src-ts", "loaded", "folder"],
      ["single-file-js", "loaded", "folder"],
      ["single-file-mjs", "loaded", "folder"],
      ["single-file-mts", "loaded", "folder"],
      ["single-file-ts", "loaded", "folder"],
    ]);
    expect(byName(host.plugins)["pkg-src-ts"]?.path).toBe(join(fixtures, "folder-discovery/plugins/pkg-src/src/index.ts"));
  });

  it("a module exporting the same plugin as default and named export registers once", async () => {
    const host = await open({ cwd: join(fixtures, "folder-discovery") });
    expect(host.plugins.filter((plugin) => plugin.name === "pkg-src-ts")).toHaveLength(1);
  });

  it("pluginsDir: false turns folder discovery off; a missing folder finds nothing", async () => {
    expect((await open({ cwd: join(fixtures, "folder-discovery"), pluginsDir: false })).plugins).toEqual([]);
    expect((await open({ cwd: join(fixtures, "folder-discovery"), pluginsDir: "does-not-exist" })).plugins).toEqual([]);
  });
});

describe("broken plugins leave the host running with clear errors", () => {
  const brokenDir = join(fixtures, "broken");
  const plugin = (host: Host, file: string) => host.plugins.find((record) => record.path?.endsWith(file));

  it("every failure is reported with the file and a one-line reason; with onPluginError allow the healthy plugin still gates", async () => {
    const host = await open({ cwd: brokenDir, onPluginError: "allow", tools: { rm: { execute: () => "deleted" } } });
    const errors = host.plugins.filter((record) => record.status === "failed").map((record) => record.error!);
    for (const error of errors) expect(error).not.toContain("\n");

    expect(plugin(host, "syntax-error.ts")?.error).toMatch(/syntax-error\.ts: could not load the module: .*Unexpected token.*\(line 3, column \d+\)/);
    expect(plugin(host, "no-name.ts")?.error).toMatch(/no-name\.ts: not a valid plugin: name is required/);
    expect(plugin(host, "throwing-factory.ts")?.error).toMatch(/throwing-factory\.ts: the plugin factory failed: missing API key/);
    expect(plugin(host, "no-export.ts")?.error).toMatch(/no-export\.ts: the module has no default export and no `plugin` export/);
    expect(plugin(host, "bad-hook.ts")?.error).toMatch(/bad-hook\.ts: not a valid plugin: hooks.pre_tool_call must be a function/);
    expect(plugin(host, "twin-b.ts")).toMatchObject({ name: "twin", status: "failed" });
    expect(plugin(host, "twin-b.ts")?.error).toContain(join(brokenDir, "plugins/twin-b.ts"));
    expect(plugin(host, "twin-b.ts")?.error).toContain(join(brokenDir, "plugins/twin-a.ts"));
    expect(plugin(host, "twin-a.ts")?.status).toBe("loaded");
    expect(host.plugins.find((record) => record.name === "no-entry-pkg")?.error).toMatch(/names the entry "dist\/index\.js", which does not exist/);
    expect(host.plugins.find((record) => record.name === "bad-json-pkg")?.error).toMatch(/is not valid JSON/);

    expect(await host.callTool({ id: "1", name: "rm", args: {} })).toMatchObject({ status: "blocked", blockedBy: "healthy" });
  });

  it("emits plugin:error per failure and plugin:loaded per success, on a host observed from the start", async () => {
    const seen: string[] = [];
    const host = await open({
      cwd: brokenDir,
      plugins: [
        {
          name: "watcher",
          order: -1,
          hooks: {},
        },
      ],
    });
    // Records are the durable report; events already fired during createHost, so count records here.
    for (const record of host.plugins) seen.push(record.status);
    expect(seen.filter((status) => status === "failed")).toHaveLength(8);
    expect(seen.filter((status) => status === "loaded")).toHaveLength(4);
  });

  it("an unknown hook name loads with a warning that suggests the closest valid name", async () => {
    const host = await open({ cwd: brokenDir });
    expect(plugin(host, "typo.ts")).toMatchObject({ status: "loaded" });
    expect(plugin(host, "typo.ts")?.warnings).toEqual([
      'unknown hook "pre_tool_cal"; did you mean "pre_tool_call"? It will never be called',
      'unknown hook "post_tool_cal"; did you mean "post_tool_call"? It will never be called',
    ]);
  });

  it("a factory that never resolves fails after the hook timeout instead of hanging the host", async () => {
    const host = await open({ configFile: false, pluginsDir: false, hookTimeoutMs: 30, plugins: [() => new Promise(() => {})] });
    expect(host.plugins[0]).toMatchObject({ status: "failed", source: "inline" });
    expect(host.plugins[0]?.error).toMatch(/factory failed: timed out after 30 ms/);
  });
});

describe("npm plugins and the config file", () => {
  const projectDir = join(fixtures, "npm-plugins");

  it("loads the packages the config names (never others installed), with options and relative paths", async () => {
    const host = await open({ cwd: projectDir, tools: { rm: { execute: () => "gone" } } });
    expect(host.configPath).toBe(join(projectDir, "toolgate.config.ts"));
    expect(host.plugins.map((record) => [record.name, record.source, record.status, record.version])).toEqual([
      ["npm-demo", "npm", "loaded", "1.2.3"],
      ["acme-scoped", "npm", "loaded", "0.0.1"],
      ["local-path", "config", "loaded", undefined],
    ]);
    const result = await host.callTool({ id: "1", name: "rm", args: {} });
    expect(result.content).toContain("npm-demo forbids rm in npm-plugins");
  });

  it("config values reach the host; createHost options override them and plugin lists are joined", async () => {
    let seenSession: unknown;
    const host = await open({
      cwd: projectDir,
      session: { user: "option-user" },
      plugins: [{ name: "inline", hooks: { on_session_start: (ctx) => void (seenSession = ctx.session) } }],
    });
    expect(seenSession).toMatchObject({ user: "option-user", team: "from-config" });
    expect(host.plugins.map((record) => record.name)).toEqual(["npm-demo", "acme-scoped", "local-path", "inline"]);
  });

  it("an npm name that is not installed is reported clearly and the rest load", async () => {
    const host = await open({ cwd: projectDir, configFile: false, pluginsDir: false, plugins: ["toolgate-plugin-nope", "toolgate-plugin-npm-demo"] });
    expect(host.plugins[0]).toMatchObject({ name: "toolgate-plugin-nope", source: "npm", status: "failed" });
    expect(host.plugins[0]?.error).toMatch(/npm package "toolgate-plugin-nope" is not installed in .*npm-plugins/);
    expect(host.plugins[1]).toMatchObject({ name: "npm-demo", status: "loaded" });
  });

  it.each([
    ["toolgate-plugin-npm-demp", "toolgate-plugin-npm-demo"],
    ["toolgate-plugin-npmdemo", "toolgate-plugin-npm-demo"],
    ["@acme/toolgate-plugn-scoped", "@acme/toolgate-plugin-scoped"],
  ])("a mistyped npm name (%s) suggests the installed package it is closest to", async (typo, installed) => {
    const host = await open({ cwd: projectDir, configFile: false, pluginsDir: false, plugins: [typo] });
    expect(host.plugins[0]?.error).toContain(`npm package "${typo}" is not installed`);
    expect(host.plugins[0]?.error).toContain(`did you mean "${installed}"?`);
    // Never an install line for the misspelt name: that package may be a squatter's.
    expect(host.plugins[0]?.error).not.toContain("npm install");
  });

  it("a name far from every installed package suggests none", async () => {
    const host = await open({ cwd: projectDir, configFile: false, pluginsDir: false, plugins: ["toolgate-plugin-budget"] });
    expect(host.plugins[0]?.error).not.toContain("did you mean");
    expect(host.plugins[0]?.error).not.toContain("npm install");
  });

  it("a config that does not validate is one clear error naming the file and the key", async () => {
    const project = createTempProject({ "toolgate.config.mjs": "export default { hookTimeoutMs: -5, plugin: [] };" });
    try {
      const error = await createHost({ cwd: project.dir, logger: false }).catch((thrown: unknown) => thrown);
      expect(isToolgateError(error) && error.code).toBe("INVALID_CONFIG");
      expect((error as Error).message).toMatch(
        /toolgate\.config\.mjs \(.*\) is invalid: .*hookTimeoutMs must be a whole number of milliseconds from 1 to 2147483647, or Infinity for no timeout/,
      );
      expect((error as Error).message).toMatch(/plugin is not a config key \(.*\); did you mean "plugins"\?/);
    } finally {
      project.remove();
    }
  });

  it("a config file that does not parse is one clear error naming the file", async () => {
    const project = createTempProject({ "toolgate.config.ts": "export default { plugins: [ }" });
    try {
      await expect(createHost({ cwd: project.dir, logger: false })).rejects.toThrow(/toolgate\.config\.ts \(.*\) could not be loaded/);
    } finally {
      project.remove();
    }
  });

  it("host options that do not validate are one clear error naming the option", async () => {
    await expect(createHost({ onHookError: "ignore" as never })).rejects.toThrow(/createHost\(\): onHookError must be "block" or "allow"/);
    await expect(createHost({ tools: { bad: {} as never } })).rejects.toThrow(/tools.bad must be a tool with an execute function/);
  });
});
