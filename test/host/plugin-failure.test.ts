import { blockMessage, createHost, type Host, type HostLogger, type HostOptions } from "@toolgate/host";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { recordEvents } from "../helpers/recorders.js";
import { createTempProject, type TempProject } from "../helpers/temp-project.js";

/**
 * A policy that fails to load or validate blocks every call, on the library host as on the CLI surfaces
 * (`onPluginError`, default "block"): a typo in a guard's options must not let `rm -rf ~` run.
 */

const hosts: Host[] = [];
const projects: TempProject[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close()));
});
afterAll(() => {
  for (const project of projects) project.remove();
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

/** A guard with options, as a published one would be: a wrong option fails its factory. */
const guardWithOptions = `
export default (options) => {
  if (options.mode !== "strict" && options.mode !== "lenient") throw new Error('mode must be "strict" or "lenient", got ' + JSON.stringify(options.mode));
  return { name: "guard", hooks: { pre_tool_call: (call) => /rm -rf/.test(String(call.args.command)) ? { action: "block", message: "no deletes" } : undefined } };
};
`;
const healthy = `export default { name: "healthy", hooks: { pre_tool_call() {} } };`;

interface FailureCase {
  /** The plugin's name as `host.plugins` reports it. */
  name: string;
  files: Record<string, string>;
  options?: HostOptions;
  /** What the block message must name besides the plugin: its file and the reason. */
  names: RegExp;
}

const failures: [string, FailureCase][] = [
  [
    "a dropped-in file with a syntax error",
    { name: "broken", files: { "plugins/broken.mjs": "export default {" }, names: /plugins\/broken\.mjs: could not load the module/ },
  ],
  [
    "a configured guard given a wrong option (its factory throws)",
    {
      name: "./guard.mjs",
      files: { "guard.mjs": guardWithOptions, "toolgate.config.mjs": `export default { plugins: [["./guard.mjs", { mode: "strcit" }]] };` },
      names: /guard\.mjs: the plugin factory failed: mode must be "strict" or "lenient", got "strcit"/,
    },
  ],
  [
    "a dropped-in plugin that does not validate",
    { name: "nameless", files: { "plugins/nameless.mjs": "export default { hooks: {} };" }, names: /nameless\.mjs: not a valid plugin: name is required/ },
  ],
  [
    "a dropped-in module with no plugin export",
    { name: "empty", files: { "plugins/empty.mjs": "export const x = 1;" }, names: /empty\.mjs: the module has no default export/ },
  ],
  [
    "a second plugin with a taken name",
    {
      name: "twin",
      files: { "plugins/twin-a.mjs": `export default { name: "twin" };`, "plugins/twin-b.mjs": `export default { name: "twin" };` },
      names: /twin-b\.mjs.*twin-a\.mjs|twin-a\.mjs.*twin-b\.mjs/,
    },
  ],
  [
    "a configured npm package that is not installed",
    {
      name: "toolgate-plugin-not-installed",
      files: { "toolgate.config.mjs": `export default { plugins: ["toolgate-plugin-not-installed"] };` },
      names: /not-installed/,
    },
  ],
  [
    "an inline factory that throws",
    {
      name: "inline plugin #1",
      files: {},
      options: {
        plugins: [
          () => {
            throw new Error("missing API key");
          },
        ],
      },
      names: /the plugin factory failed: missing API key/,
    },
  ],
];

function terminalTool(ran: string[]) {
  return { Bash: { execute: (args: Record<string, unknown>) => (ran.push(String(args.command)), "ran") } };
}

describe.each(failures)("%s", (_case, failure) => {
  const files = { ...failure.files, "plugins/healthy.mjs": healthy };

  it("blocks every call by default, naming the plugin, its file and the reason; the tool never runs", async () => {
    const ran: string[] = [];
    const dir = project(files).dir;
    const host = await open({ cwd: dir, tools: terminalTool(ran), ...failure.options });
    expect(host.plugins.find((record) => record.name === failure.name && record.status === "failed")).toBeDefined();
    expect(host.plugins.find((record) => record.name === "healthy")?.status).toBe("loaded");

    const result = await host.callTool({ id: "c1", name: "Bash", args: { command: "rm -rf ~" } });
    expect(result).toMatchObject({ status: "blocked", blockedBy: failure.name });
    expect(result.content).toContain(`Tool call blocked by plugin "${failure.name}": plugin "${failure.name}" failed to load: `);
    expect(result.content).toMatch(failure.names);
    expect(result.content).toContain('(every call is blocked until it loads; onPluginError: "block")');
    // Harmless calls too: the failed plugin would have had its say on every one.
    expect(await host.callTool({ id: "c2", name: "Bash", args: { command: "ls" } })).toMatchObject({ status: "blocked", content: result.content });
    expect(ran).toEqual([]);

    const verdict = await host.checkToolCall({ id: "c3", name: "Bash", args: { command: "ls" } });
    expect(verdict).toMatchObject({ action: "block", plugin: failure.name, source: { kind: "plugin", name: failure.name } });
    expect(blockMessage(verdict)).toBe(result.content);
  });

  it.each(["host options", "the config file"])("with onPluginError allow (in %s) the plugins that loaded decide alone", async (where) => {
    const ran: string[] = [];
    const configured: Record<string, string> = { ...files };
    let options: HostOptions = { ...failure.options };
    if (where === "host options") options = { ...options, onPluginError: "allow" };
    else {
      const config = configured["toolgate.config.mjs"];
      configured["toolgate.config.mjs"] =
        config === undefined ? `export default { onPluginError: "allow" };` : config.replace("export default {", `export default { onPluginError: "allow",`);
    }
    const host = await open({ cwd: project(configured).dir, tools: terminalTool(ran), ...options });
    expect(host.plugins.some((record) => record.status === "failed")).toBe(true);
    expect(await host.callTool({ id: "c1", name: "Bash", args: { command: "ls" } })).toMatchObject({ status: "ok", content: "ran" });
    expect(ran).toEqual(["ls"]);
  });
});

describe("the failure is reported as before, and decided in one place", () => {
  const brokenProject = () => project({ "plugins/broken.mjs": "export default {", "plugins/healthy.mjs": healthy });

  it("plugin:error fires and host.plugins says failed; tool:blocked and tool:end carry the failed plugin as the source", async () => {
    const errors: string[] = [];
    const host = await open({ cwd: brokenProject().dir, tools: terminalTool([]), on: { "plugin:error": ({ plugin }) => void errors.push(plugin.name) } });
    expect(errors).toEqual(["broken"]);
    expect(host.plugins.find((record) => record.name === "broken")).toMatchObject({ status: "failed", error: expect.stringContaining("broken.mjs") });
    const seen = recordEvents(host.events);
    await host.callTool({ id: "c1", name: "Bash", args: {} });
    expect(seen.map(({ type }) => type)).toEqual(["decision", "tool:blocked", "tool:end"]);
    expect(seen[0]!.payload).toMatchObject({ verdict: "block", source: { kind: "plugin", name: "broken" } });
    expect(seen[1]!.payload).toMatchObject({ plugin: "broken", source: { kind: "plugin", name: "broken" } });
    expect(host.denials()).toMatchObject([{ source: { kind: "plugin", name: "broken" } }]);
  });

  it("every path blocks: a batch (sequential and concurrent), checkToolCall then callTool with the skip flag, an unknown tool", async () => {
    const ran: string[] = [];
    const host = await open({ cwd: brokenProject().dir, tools: terminalTool(ran) });
    const calls = [1, 2, 3].map((index) => ({ id: `b${index}`, name: "Bash", args: { command: `echo ${index}` } }));
    for (const concurrency of [1, 3]) {
      const results = await host.callTools(calls, { concurrency });
      expect(results.map((result) => [result.callId, result.status])).toEqual(calls.map((call) => [call.id, "blocked"]));
    }
    const call = { id: "s1", name: "Bash", args: { command: "ls" } };
    expect((await host.checkToolCall(call, { resolveAsk: true })).action).toBe("block");
    expect(await host.callTool(call, { skipPreToolCallHook: true })).toMatchObject({ status: "blocked", blockedBy: "broken" });
    expect(await host.callTool({ id: "u1", name: "nope", args: {} })).toMatchObject({ status: "blocked" });
    expect(ran).toEqual([]);
  });

  it("several failed plugins: the block names each, its file and its reason; the first is the source", async () => {
    const dir = project({
      "plugins/a-broken.mjs": "export default {",
      "plugins/b-nameless.mjs": "export default { hooks: {} };",
      "plugins/healthy.mjs": healthy,
    }).dir;
    const host = await open({ cwd: dir });
    const verdict = await host.checkToolCall({ id: "c1", name: "Bash", args: {} });
    expect(verdict).toMatchObject({ action: "block", plugin: "a-broken", source: { kind: "plugin", name: "a-broken" } });
    expect(verdict.message).toMatch(
      /^plugin "a-broken" failed to load: .*a-broken\.mjs: could not load the module.*; plugin "b-nameless" failed to load: .*b-nameless\.mjs: not a valid plugin: name is required \(every call is blocked until they load; onPluginError: "block"\)$/,
    );
  });

  it("explainToolCall gives the same block, and still lists what the loaded plugins said", async () => {
    const host = await open({ cwd: brokenProject().dir });
    const call = { id: "e1", name: "Bash", args: { command: "ls" } };
    const explanation = await host.explainToolCall(call);
    expect(explanation.verdict).toEqual(await host.checkToolCall(call));
    expect(explanation.verdict).toMatchObject({ action: "block", plugin: "broken" });
    expect(explanation.plugins).toEqual([{ plugin: "healthy", outcome: "none" }]);
  });

  it("a wrong value in the config file is a clear error", async () => {
    const dir = project({ "toolgate.config.mjs": `export default { onPluginError: "deny" };` }).dir;
    await expect(open({ cwd: dir })).rejects.toThrow(/toolgate\.config\.mjs.*onPluginError must be "block" or "allow"/);
  });

  it("a wrong value in host options is a clear error", async () => {
    await expect(open({ cwd: project({}).dir, onPluginError: "deny" as never })).rejects.toThrow(/createHost\(\): .*onPluginError must be "block" or "allow"/);
  });
});

describe("what the host says once, through its logger", () => {
  function recordingLogger(): { lines: string[]; logger: HostLogger } {
    const lines: string[] = [];
    const push = (level: string) => (message: string) => void lines.push(`${level}: ${message}`);
    return { lines, logger: { debug: push("debug"), info: push("info"), warn: push("warn"), error: push("error") } };
  }

  it.each([
    ["no plugins and no rules", {}, {}, [expect.stringMatching(/^warn: no plugins and no permission rules in .*: every tool call is allowed/)]],
    ["only permission rules", { "toolgate.config.mjs": `export default { permissions: { deny: ["Bash"] } };` }, {}, []],
    ["one plugin", { "plugins/healthy.mjs": healthy }, {}, []],
    ["an inline plugin", {}, { plugins: [{ name: "inline" }] }, []],
    ["plugins folder off and nothing else", {}, { pluginsDir: false as const }, [expect.stringMatching(/^warn: no plugins and no permission rules/)]],
    [
      "a failed plugin (block)",
      { "plugins/broken.mjs": "export default {" },
      {},
      [
        expect.stringMatching(/^error: plugin "broken" failed to load: /),
        'error: a plugin failed to load: every tool call is blocked until the plugins load (onPluginError: "block")',
      ],
    ],
    [
      "a failed plugin (allow)",
      { "plugins/broken.mjs": "export default {" },
      { onPluginError: "allow" as const },
      [
        expect.stringMatching(/^error: plugin "broken" failed to load: /),
        'warn: a plugin failed to load: the plugins that loaded decide alone (onPluginError: "allow")',
      ],
    ],
  ])("%s", async (_case, files, options, expected) => {
    const { lines, logger } = recordingLogger();
    const host = await open({ cwd: project(files).dir, logger, tools: terminalTool([]), ...options });
    // Said at start, once: calls add nothing.
    await host.callTool({ id: "c1", name: "Bash", args: {} });
    await host.callTool({ id: "c2", name: "Bash", args: {} });
    expect(lines).toEqual(expected);
  });
});
