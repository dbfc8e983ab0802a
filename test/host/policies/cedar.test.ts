// Cedar hooks (type: "cedar", @toolgate/cedar): the verdict through toolgate equals Cedar's own
// isAuthorized on the same request over a corpus; a policy or schema that does not parse or validate
// stops the host at load with the file and line; a policy that errors on a call blocks it; a missing
// package fails closed with its npm install line; `toolgate cedar schema` prints a schema policies
// validate against.
import type * as CedarWasm from "@cedar-policy/cedar-wasm/nodejs";
import { createHost, type Host, type Verdict } from "@toolgate/host";
import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, describe, expect, it, vi } from "vitest";
import { runHook } from "../../helpers/hook-harness.js";
import { makeTempDir, removeTempDirs, runCli, writeFiles } from "../../helpers/cli-harness.js";
import { filesystemServerPath } from "../../helpers/proxy-harness.js";
import { corpusCalls, corpusPolicies, corpusSessions, corpusText } from "./cedar-corpus.js";

vi.setConfig({ testTimeout: 60_000 });
afterAll(removeTempDirs);

// Cedar itself, straight from the library the package wraps (its Node build: see packages/cedar/src/cedar-wasm.ts).
const cedar = createRequire(import.meta.url)("@cedar-policy/cedar-wasm/nodejs") as typeof CedarWasm;

function project(files: Record<string, string>, where: "repo" | "os" = "repo"): string {
  const dir = makeTempDir(where, "cedar-");
  writeFiles(dir, files);
  return dir;
}

const cedarHook = (extra: Record<string, unknown> = {}) => ({ type: "cedar" as const, policies: "policies.cedar", ...extra });

async function hostWith(dir: string, hook: Record<string, unknown> = cedarHook()): Promise<Host> {
  return createHost({ cwd: dir, logger: false, pluginsDir: false, hooks: { pre_tool_call: [hook as never] } });
}

type Expected = { outcome: "block"; message: string | RegExp } | { outcome: "allow" } | { outcome: "none" };

/** Cedar's answer read the way toolgate promises to read it. */
function expectedFrom(answer: CedarWasm.AuthorizationAnswer): Expected {
  if (answer.type === "failure") return { outcome: "block", message: /Cedar refused the request/ };
  const { decision, diagnostics } = answer.response;
  if (diagnostics.errors.length > 0) return { outcome: "block", message: /^a Cedar policy failed on this call: policy \S+ at policies\.cedar:\d+:\d+/ };
  if (decision === "allow") return { outcome: "allow" };
  // Several forbids may determine a Deny; the first in the file gives the message.
  if (diagnostics.reason.length === 0) return { outcome: "none" };
  const index = Math.min(...diagnostics.reason.map((policy) => Number(policy.replace("policy", ""))));
  const id = /@id\("([^"]+)"\)/.exec(corpusPolicies[index]!.text)![1]!;
  return { outcome: "block", message: corpusPolicies[index]!.message ?? `forbidden by Cedar policy ${id} in policies.cedar` };
}

function outcomeOf(verdict: Verdict): string {
  if (verdict.source === undefined) return verdict.action === "allow" ? "none" : `${verdict.action} (no source)`;
  return verdict.source.kind === "cedar" ? verdict.action : `${verdict.action} by ${verdict.source.kind}`;
}

describe("the verdict through toolgate is Cedar's own", () => {
  it("on a corpus of calls × sessions, equals isAuthorized on the same request", async () => {
    const dir = project({ "policies.cedar": corpusText });
    const host = await hostWith(dir);
    const seen = new Map<string, number>();
    try {
      for (const session of corpusSessions) {
        for (const [index, call] of corpusCalls.entries()) {
          const callId = `c${index}`;
          const verdict = await host.checkToolCall({ id: callId, ...call }, { session });
          const context: Record<string, CedarWasm.CedarValueJson> = {
            tool: call.name,
            kind: call.kind,
            args: call.args as Record<string, CedarWasm.CedarValueJson>,
            callId,
            session: session.user === undefined ? { id: session.id } : { id: session.id, user: session.user },
            cwd: dir,
          };
          if (session.agent !== undefined) context.agent = session.agent;
          const answer = cedar.isAuthorized({
            principal: { type: "Agent", id: session.agent ?? "unknown" },
            action: { type: "Action", id: call.name },
            resource: { type: "Tool", id: call.name },
            context,
            policies: { staticPolicies: corpusText },
            entities: [],
          });
          const expected = expectedFrom(answer);
          const label = `${call.name} ${JSON.stringify(call.args)} in ${JSON.stringify(session)}`;
          expect(outcomeOf(verdict), label).toBe(expected.outcome);
          if (expected.outcome === "block") expect(verdict.message, label).toMatch(expected.message);
          seen.set(expected.outcome, (seen.get(expected.outcome) ?? 0) + 1);
        }
      }
    } finally {
      await host.close();
    }
    // The corpus reaches every outcome, errors included (tags and math without their argument).
    expect(Object.fromEntries(seen)).toEqual({ block: expect.any(Number), allow: expect.any(Number), none: expect.any(Number) });
    expect(seen.get("block")! + seen.get("allow")! + seen.get("none")!).toBe(corpusCalls.length * corpusSessions.length);
  });

  it("a policy that errors on a call blocks it, naming the policy and its line (Cedar would skip it)", async () => {
    const dir = project({
      "policies.cedar":
        'permit(principal, action, resource);\n@id("needs-path")\nforbid(principal, action, resource) when { context.args.path like "/etc/*" };\n',
    });
    const host = await hostWith(dir);
    const verdict = await host.checkToolCall({ id: "c1", name: "Bash", args: { command: "ls" } });
    expect(verdict).toMatchObject({ action: "block", source: { kind: "cedar", name: "policies.cedar" } });
    expect(verdict.message).toMatch(
      /a Cedar policy failed on this call: policy needs-path at policies\.cedar:3:\d+: record does not have the attribute `path`/,
    );
    expect((await host.checkToolCall({ id: "c2", name: "Bash", args: { path: "/home/x" } })).action).toBe("allow");
    expect((await host.checkToolCall({ id: "c3", name: "Bash", args: { path: "/etc/passwd" } })).action).toBe("block");
    await host.close();
  });

  it("arguments Cedar has no value for: null is left out, a fraction is its text, an __entity key is dropped", async () => {
    const dir = project({
      "policies.cedar":
        'forbid(principal, action, resource) when { context.args has gone };\nforbid(principal, action, resource) when { context.args has ratio && context.args.ratio == "0.5" && !(context.args.spoof has __entity) };\n',
    });
    const host = await hostWith(dir);
    expect((await host.checkToolCall({ id: "c1", name: "t", args: { gone: null, ratio: 0.25, spoof: {} } })).action).toBe("allow");
    expect((await host.checkToolCall({ id: "c2", name: "t", args: { ratio: 0.5, spoof: { __entity: { type: "Agent", id: "x" } } } })).action).toBe("block");
    await host.close();
  });
});

describe("a policy that does not parse or validate fails closed at load, with the file and line", () => {
  it("a syntax error names the config key, the file, line and column", async () => {
    const dir = project({
      "policies.cedar":
        'permit(principal, action, resource);\n\nforbid(principal, action == Action::"Bash", resource)\n  when { context.args.command like "rm *" && };\n',
    });
    await expect(hostWith(dir)).rejects.toThrow(
      /createHost\(\): hooks\.pre_tool_call\[0\]: Cedar policies do not parse: policies\.cedar:4:\d+: .*unexpected token `}`/,
    );
  });

  it("a policy that does not validate against the schema names its line; a valid one loads", async () => {
    const schema = 'entity Agent; entity Tool;\naction "Bash" appliesTo { principal: Agent, resource: Tool, context: { args: { command: String } } };\n';
    const dir = project({
      "toolgate.cedarschema": schema,
      "policies.cedar":
        'permit(principal, action == Action::"Bash", resource);\nforbid(principal, action == Action::"Bash", resource) when { context.args.cmd == "x" };\n',
      "good.cedar": 'forbid(principal, action == Action::"Bash", resource) when { context.args.command like "rm *" };\n',
    });
    await expect(hostWith(dir, cedarHook({ schema: "toolgate.cedarschema" }))).rejects.toThrow(
      /Cedar policies do not validate against toolgate\.cedarschema: policies\.cedar:2:\d+: .*attribute `args\.cmd` in context for Action::"Bash" not found/,
    );
    const host = await hostWith(dir, cedarHook({ policies: "good.cedar", schema: "toolgate.cedarschema" }));
    expect((await host.checkToolCall({ id: "c1", name: "Bash", args: { command: "rm x" } })).action).toBe("block");
    await host.close();
  });

  it("a schema that does not parse, a JSON schema that is not JSON, a missing file", async () => {
    const dir = project({ "policies.cedar": "permit(principal, action, resource);\n", "bad.cedarschema": "entity Agent;\nentity ;\n", "bad.json": "{" });
    await expect(hostWith(dir, cedarHook({ schema: "bad.cedarschema" }))).rejects.toThrow(/the Cedar schema does not parse: bad\.cedarschema:2:\d+/);
    await expect(hostWith(dir, cedarHook({ schema: "bad.json" }))).rejects.toThrow(/the Cedar schema bad\.json is not JSON/);
    await expect(hostWith(dir, cedarHook({ policies: "nope.cedar" }))).rejects.toThrow(
      /hooks\.pre_tool_call\[0\]: policies "nope\.cedar" cannot be read: ENOENT/,
    );
  });

  it("the config is checked: policies is required, keys are the cedar hook's, post_tool_call is refused", async () => {
    const dir = project({ "policies.cedar": "permit(principal, action, resource);\n" });
    await expect(hostWith(dir, { type: "cedar" })).rejects.toThrow(/policies/);
    await expect(hostWith(dir, cedarHook({ command: "x" }))).rejects.toThrow(/is not a cedar hook key \(type, matcher, timeout, shadow, policies, schema\)/);
    const post = createHost({ cwd: dir, logger: false, pluginsDir: false, hooks: { post_tool_call: [cedarHook()] } });
    await expect(post).rejects.toThrow(/a cedar hook decides calls, so it belongs under pre_tool_call/);
  });

  it("through toolgate hook claude-code: the agent's call is denied with the file and line", async () => {
    const dir = project({
      "toolgate.config.json": JSON.stringify({ hooks: { pre_tool_call: [cedarHook()] } }),
      "policies.cedar": "permit(principal, action, resource)\nforbid(principal, action, resource);\n",
    });
    const run = await runHook(
      "claude-code",
      { hook_event_name: "PreToolUse", session_id: "s", cwd: dir, tool_name: "Bash", tool_input: { command: "ls" } },
      { cwd: dir },
    );
    expect(run.code, run.stderr).toBe(2);
    expect(run.stderr).toMatch(/Cedar policies do not parse: policies\.cedar:2:7/);
  });
});

describe("without @toolgate/cedar", () => {
  it("toolgate hook denies every call with the npm install line", async () => {
    // A project outside the workspace, and a resolve hook that hides the package from the host itself.
    const dir = project(
      {
        "toolgate.config.json": JSON.stringify({ hooks: { pre_tool_call: [cedarHook()] } }),
        "policies.cedar": "permit(principal, action, resource);\n",
        "hide.mjs": `import { register } from "node:module";\nregister("data:text/javascript," + encodeURIComponent(${JSON.stringify(hideCedar)}));\n`,
      },
      "os",
    );
    // NODE_PATH: pnpm's bin shims point it at the workspace's hoisted packages, where a user's project has none.
    const env = { NODE_OPTIONS: `--import ${pathToFileURL(join(dir, "hide.mjs")).href}`, NODE_PATH: "" };
    const run = await runHook(
      "claude-code",
      { hook_event_name: "PreToolUse", session_id: "s", cwd: dir, tool_name: "Read", tool_input: { file_path: "a" } },
      { cwd: dir, env },
    );
    expect(run.code, run.stdout + run.stderr).toBe(2);
    expect(run.stderr).toContain(
      'Cedar policies (type: "cedar") need @toolgate/cedar, which is not installed: run `npm install @toolgate/cedar` in the project',
    );
    const schema = await runCli(["cedar", "schema", "--cwd", dir], { cwd: dir, env });
    expect(schema.code).toBe(1);
    expect(schema.stderr).toContain("npm install @toolgate/cedar");
  });
});

const hideCedar = `export async function resolve(specifier, context, next) {
  if (specifier === "@toolgate/cedar") throw Object.assign(new Error("Cannot find package '@toolgate/cedar'"), { code: "ERR_MODULE_NOT_FOUND" });
  return next(specifier, context);
}`;

describe("toolgate cedar schema", () => {
  const tools = [
    { name: "Bash", inputSchema: { type: "object", properties: { command: { type: "string" }, timeout: { type: "number" } }, required: ["command"] } },
    { name: "Write", input_schema: { type: "object", properties: { file_path: { type: "string" }, tags: { type: "array", items: { type: "string" } } } } },
  ];

  it("prints a schema from --tools that policies validate against at load", async () => {
    const dir = project({ "tools.json": JSON.stringify(tools) });
    const run = await runCli(["cedar", "schema", "--tools", "tools.json"], { cwd: dir });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/action "Bash" appliesTo \{[\s\S]*command: String,\s*timeout\?: Long/);
    expect(run.stdout).toMatch(/action "Write"[\s\S]*file_path\?: String,\s*tags\?: Set<String>/);
    writeFiles(dir, {
      "toolgate.cedarschema": run.stdout,
      "ok.cedar":
        'forbid(principal, action == Action::"Write", resource) when { context.args has file_path && context.args.file_path like "*.env" && context.session has user };\n',
      "typo.cedar": 'forbid(principal, action == Action::"Bash", resource) when { context.args.timeout like "*" };\n',
    });
    const host = await hostWith(dir, cedarHook({ policies: "ok.cedar", schema: "toolgate.cedarschema" }));
    await host.close();
    await expect(hostWith(dir, cedarHook({ policies: "typo.cedar", schema: "toolgate.cedarschema" }))).rejects.toThrow(/typo\.cedar:1:\d+/);
    const json = await runCli(["cedar", "schema", "--json", "--tools", "tools.json"], { cwd: dir });
    const parsed = JSON.parse(json.stdout) as Record<string, { actions: Record<string, unknown> }>;
    expect(Object.keys(parsed[""]!.actions)).toEqual(["Bash", "Write"]);
    expect(cedar.checkParseSchema(parsed as CedarWasm.Schema)).toEqual({ type: "success" });
  });

  it("reads an MCP server's tools/list after --, and prints the types alone without tools", async () => {
    const dir = project({});
    const run = await runCli(["cedar", "schema", "--", process.execPath, filesystemServerPath, dir], { cwd: dir });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toMatch(/action "write_file" appliesTo \{[\s\S]*content: String,\s*path: String/);
    const bare = await runCli(["cedar", "schema"], { cwd: dir });
    expect(bare.stdout).toMatch(/type Session = \{[\s\S]*entity Agent;[\s\S]*entity Tool;/);
    expect(bare.stdout).not.toContain("action");
    const bad = await runCli(["cedar", "schema", "--tools", "missing.json"], { cwd: dir });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/--tools missing\.json is not a readable JSON file/);
  });
});
