import { evaluate } from "@marcbachmann/cel-js";
import { createHost, type Host, type HostOptions, type SessionOptions, type ToolCallInput, type Verdict } from "@toolgate/host";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { parseAnswer, runHook } from "../../helpers/hook-harness.js";
import { makeTempDir, removeTempDirs, runCli, writeFiles } from "../../helpers/cli-harness.js";
import { calls, expressions, sessions } from "./cel-corpus.js";

const hosts: Host[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close()));
});
afterAll(() => removeTempDirs());

type CelRule = { expression: string; action: "block" | "ask" | "allow"; message?: string };

/** A host whose one policy is a CEL hook with `rules`, and the folder it was opened on (the context's `cwd`). */
async function celHost(rules: CelRule[], extra: HostOptions = {}): Promise<{ host: Host; cwd: string }> {
  const cwd = makeTempDir("os", "cel-");
  const host = await createHost({ cwd, pluginsDir: false, logger: false, protectPolicy: "off", hooks: { pre_tool_call: [{ type: "cel", rules }] }, ...extra });
  hosts.push(host);
  return { host, cwd };
}

type Outcome = "true" | "false" | "error";

/** The library's own answer, called directly on the context the policy sees (cel-js's plain `evaluate`). */
function libraryOutcome(expression: string, call: ToolCallInput, callId: string, session: (typeof sessions)[number], cwd: string): Outcome {
  const bindings = {
    tool: call.name,
    kind: call.kind ?? "function",
    args: call.args,
    callId,
    session: session.user === undefined ? { id: session.id } : { id: session.id, user: session.user },
    agent: session.agent ?? "",
    cwd,
  };
  try {
    const value = evaluate(expression, bindings);
    return value === true ? "true" : value === false ? "false" : "error";
  } catch {
    return "error";
  }
}

/** Every (session, call) pair, each with its own call id. */
function* corpusCalls() {
  for (const [s, session] of sessions.entries())
    for (const [c, call] of calls.entries()) yield { session, call: { ...call, id: `call-${s}-${c}` } as ToolCallInput & { id: string } };
}

function check(host: Host, call: ToolCallInput, session: SessionOptions): Promise<Verdict> {
  return host.checkToolCall(call, { session });
}

describe("differential: toolgate's CEL verdicts equal the library's own evaluation", () => {
  it("each expression alone, on every call and session: true blocks, false is no opinion, an error blocks naming the rule", async () => {
    const seen: Record<Outcome | "unexpected", number> = { true: 0, false: 0, error: 0, unexpected: 0 };
    for (const expression of expressions) {
      const { host, cwd } = await celHost([{ expression, action: "block", message: "hit" }]);
      for (const { session, call } of corpusCalls()) {
        const expected = libraryOutcome(expression, call, call.id, session, cwd);
        const verdict = await check(host, call, session);
        const got = outcomeOf(verdict);
        expect(got, `${expression} on ${JSON.stringify(call)} as ${session.id}: ${verdict.message}`).toBe(expected);
        if (got !== "false") expect(verdict.source).toEqual({ kind: "cel", name: "1 rule" });
        seen[got]++;
      }
      await host.close();
    }
    // The corpus reaches every outcome often enough to mean something.
    expect(seen.true).toBeGreaterThan(80);
    expect(seen.false).toBeGreaterThan(200);
    expect(seen.error).toBeGreaterThan(40);
  });

  it("all of them in one hook, in two orders: the first rule that holds decides with its action; a failing rule before it blocks", async () => {
    const actions = ["block", "ask", "allow"] as const;
    for (const order of [expressions, [...expressions].reverse()]) {
      const rules = order.map((expression, index) => ({ expression, action: actions[index % 3]! }));
      const { host, cwd } = await celHost(rules);
      let decided = 0;
      for (const { session, call } of corpusCalls()) {
        const verdict = await check(host, call, session);
        const outcomes = rules.map((rule) => libraryOutcome(rule.expression, call, call.id, session, cwd));
        const first = outcomes.findIndex((outcome) => outcome !== "false");
        const label = `${JSON.stringify(call)} as ${session.id}`;
        if (first === -1) {
          expect(verdict, label).toMatchObject({ action: "allow" });
          expect(verdict.source, label).toBeUndefined();
          continue;
        }
        decided++;
        const where = `createHost(): hooks.pre_tool_call[0].rules[${first}]`;
        if (outcomes[first] === "error") {
          expect(verdict.action, label).toBe("block");
          expect(verdict.message, label).toContain(`blocked: CEL rule ${where} (`);
        } else {
          expect(verdict.action, label).toBe(rules[first]!.action);
          if (verdict.action !== "allow")
            expect(verdict.message, label).toBe(
              `${verdict.action === "block" ? "blocked" : "needs approval"} by CEL rule ${where}: ${rules[first]!.expression}`,
            );
          expect(verdict.source, label).toEqual({ kind: "cel", name: `${rules.length} rules` });
        }
      }
      expect(decided).toBeGreaterThan(10);
    }
  });
});

/** What a one-rule hook's verdict says the expression gave. */
function outcomeOf(verdict: Verdict): Outcome | "unexpected" {
  if (verdict.action === "allow") return "false";
  if (verdict.message === "hit") return "true";
  const failed = /^blocked: CEL rule createHost\(\): hooks\.pre_tool_call\[0\]\.rules\[0\] \(.*\) (failed on this call: |gave .*, not a bool)/s;
  return failed.test(verdict.message ?? "") ? "error" : "unexpected";
}

/** `createHost` on a project folder holding `files`; resolves to the error it rejects with. */
async function loadError(files: Record<string, string>): Promise<Error> {
  const cwd = makeTempDir("os", "cel-config-");
  writeFiles(cwd, files);
  const error = await createHost({ cwd, logger: false }).then(
    (host) => (hosts.push(host), new Error("loaded")),
    (thrown: unknown) => thrown as Error,
  );
  return error;
}

const config = (hook: Record<string, unknown>) => ({
  "toolgate.config.json": JSON.stringify({ pluginsDir: false, hooks: { pre_tool_call: [{ type: "cel", ...hook }] } }),
});

describe("a CEL policy that does not compile stops the load, naming the file and the rule", () => {
  it("inline: a parse error, a type error, an unknown variable and a non-bool expression, each with the rule's index", async () => {
    const cases: [string, RegExp][] = [
      [
        'tool == "Bash" &&',
        /toolgate\.config\.json: hooks\.pre_tool_call\[0\]\.rules\[1\]\.expression does not parse: Unexpected token: EOF\n {4}> +1 \| tool == "Bash" &&\n +\^$/,
      ],
      ['tool + 1 == "x"', /toolgate\.config\.json: hooks\.pre_tool_call\[0\]\.rules\[1\]\.expression does not type-check: .*no such overload/],
      ['user.name == "x"', /toolgate\.config\.json: hooks\.pre_tool_call\[0\]\.rules\[1\]\.expression does not type-check: .*user/],
      ["args.size()", /toolgate\.config\.json: hooks\.pre_tool_call\[0\]\.rules\[1\]\.expression is a int, not a bool/],
    ];
    for (const [expression, message] of cases) {
      const error = await loadError(
        config({
          rules: [
            { expression: "true", action: "allow" },
            { expression, action: "block" },
          ],
        }),
      );
      expect(error.message, expression).toMatch(message);
      expect((error as { code?: string }).code).toBe("POLICY_HOOK_INVALID");
    }
  });

  it("from a file: the file, the rule's line and its index", async () => {
    const rules = [
      "# rules for the shell",
      "- expression: kind == 'shell'",
      "  action: allow",
      "",
      "- expression: >-",
      "    args.command.contains('rm') ||",
      "  action: block",
      "",
    ].join("\n");
    const error = await loadError({ ...config({ file: "policy/rules.yaml" }), "policy/rules.yaml": rules });
    expect(error.message).toMatch(/^policy\/rules\.yaml:5: rules\[1\]\.expression does not parse: /);

    const badItem = await loadError({
      ...config({ file: "rules.json" }),
      "rules.json": '[\n  { "expression": "true", "action": "allow" },\n  { "expression": "true", "action": "deny" }\n]\n',
    });
    expect(badItem.message).toMatch(/^rules\.json:3: rules\[1\]\.action must be "block", "ask" or "allow"/);

    const notAList = await loadError({ ...config({ file: "rules.yaml" }), "rules.yaml": "expression: true\n" });
    expect(notAList.message).toContain("rules.yaml: must hold a list of rules");

    const missing = await loadError(config({ file: "nowhere.yaml" }));
    expect(missing.message).toMatch(/hooks\.pre_tool_call\[0\]\.file "nowhere\.yaml" cannot be read: .*ENOENT/);
  });

  it("the config schema: no rules, an unknown key, a bad action; and a cel hook under post_tool_call", async () => {
    expect((await loadError(config({}))).message).toContain("needs rules, a file of rules, or both");
    expect((await loadError(config({ rules: [{ expression: "true", action: "block", why: "x" }] }))).message).toMatch(/is not a CEL rule key/);
    expect((await loadError(config({ rules: [{ expression: "true", action: "deny" }] }))).message).toMatch(/must be "block", "ask" or "allow"/);
    expect((await loadError(config({ rules: [], command: "x" }))).message).toMatch(/is not a cel hook key/);
    const post = await loadError({
      "toolgate.config.json": JSON.stringify({
        pluginsDir: false,
        hooks: { post_tool_call: [{ type: "cel", rules: [{ expression: "true", action: "block" }] }] },
      }),
    });
    expect(post.message).toContain("hooks.post_tool_call[0]: a cel hook decides calls before they run, so it belongs under pre_tool_call");
  });

  it("toolgate check fails with the rule, and toolgate hook claude-code denies with it", async () => {
    const cwd = makeTempDir("os", "cel-cli-");
    writeFiles(cwd, config({ rules: [{ expression: "args.command.startsWith(", action: "block" }] }));
    const checked = await runCli(["check", "--cwd", cwd]);
    expect(checked.code).toBe(1);
    expect(checked.stderr).toContain("toolgate.config.json: hooks.pre_tool_call[0].rules[0].expression does not parse");
    const hook = await runHook("claude-code", claudeInput(cwd, { command: "ls" }), { cwd });
    expect(hook.code).toBe(2);
    expect(hook.stderr).toContain("rules[0].expression does not parse");
    expect(parseAnswer(hook).hookSpecificOutput).toMatchObject({ permissionDecision: "deny" });
  });
});

describe("a rule that fails on a call blocks it, naming the rule", () => {
  it("a missing key, a wrong type and a non-bool result block, even with onHookError: allow", async () => {
    const { host } = await celHost(
      [
        { expression: 'args.command.startsWith("git ")', action: "allow" },
        { expression: "args.count > 3", action: "block" },
        { expression: "args.flag", action: "block" },
      ],
      { onHookError: "allow" },
    );
    const missing = await host.checkToolCall({ name: "Read", args: { path: "x" } });
    expect(missing).toMatchObject({ action: "block", source: { kind: "cel", name: "3 rules" } });
    expect(missing.message).toMatch(
      /blocked: CEL rule createHost\(\): hooks\.pre_tool_call\[0\]\.rules\[0\] \(args\.command\.startsWith\("git "\)\) failed on this call: .*command/,
    );
    const wrongType = await host.checkToolCall({ name: "Bash", args: { command: "ls", count: "many" } });
    expect(wrongType.message).toMatch(/rules\[1\] \(args\.count > 3\) failed on this call/);
    const notBool = await host.checkToolCall({ name: "Bash", args: { command: "ls", count: 1, flag: "yes" } });
    expect(notBool.message).toMatch(/rules\[2\] \(args\.flag\) gave the string "yes", not a bool/);
    expect(await host.checkToolCall({ name: "Bash", args: { command: "ls", count: 1, flag: false } })).toMatchObject({ action: "allow" });
    expect(await host.checkToolCall({ name: "Bash", args: { command: "git status" } })).toMatchObject({ action: "allow", source: { kind: "cel" } });
  });
});

const hideCel = pathToFileURL(fileURLToPath(new URL("./fixtures/hide-cel.mjs", import.meta.url))).href;

describe("without @toolgate/cel", () => {
  it("the hook loads, and every call it would decide is denied with the npm install line; check says so", async () => {
    const cwd = makeTempDir("os", "cel-missing-");
    writeFiles(cwd, config({ matcher: "Bash", rules: [{ expression: "false", action: "block" }] }));
    // NODE_PATH (set by pnpm and npx) would let the project-folder fallback find the workspace's copy.
    const env = { NODE_OPTIONS: `--import=${hideCel}`, NODE_PATH: "" };
    const denied = await runHook("claude-code", claudeInput(cwd, { command: "ls" }), { cwd, env });
    expect(denied.code, `${denied.stdout}\n${denied.stderr}`).toBe(2);
    expect(denied.stderr).toContain("need @toolgate/cel, which is not installed: run `npm install @toolgate/cel` in the project");
    expect(parseAnswer(denied).hookSpecificOutput).toMatchObject({ permissionDecision: "deny" });

    const checked = await runCli(["check", "--cwd", cwd, "--json"], { env });
    expect(checked.code).toBe(1);
    expect((JSON.parse(checked.stdout) as { problems: string[] }).problems.join("\n")).toContain("`npm install @toolgate/cel`");

    // The same project with the package where it resolves: the rule decides (no opinion).
    const allowed = await runHook("claude-code", claudeInput(cwd, { command: "ls" }), { cwd });
    expect(allowed.code, allowed.stderr).toBe(0);
  });
});

function claudeInput(cwd: string, input: Record<string, unknown>) {
  return { hook_event_name: "PreToolUse", session_id: "s", transcript_path: "", cwd, tool_name: "Bash", tool_input: input, tool_use_id: "toolu_1" };
}

describe("a CEL rules file is policy", () => {
  it("toolgate's protection refuses a call that would rewrite it", async () => {
    const cwd = makeTempDir("os", "cel-protect-");
    writeFiles(cwd, { ...config({ file: "policy/rules.yaml" }), "policy/rules.yaml": "- expression: 'false'\n  action: block\n" });
    const host = await createHost({ cwd, logger: false });
    hosts.push(host);
    const rewrite = await host.checkToolCall({ name: "write_file", kind: "file_write", args: { path: join(cwd, "policy/rules.yaml"), content: "[]" } });
    expect(rewrite.action).toBe("block");
    expect(rewrite.message).toContain("the CEL rules of toolgate.config.json: hooks.pre_tool_call[0]");
    const elsewhere = await host.checkToolCall({ name: "write_file", kind: "file_write", args: { path: join(cwd, "notes.md"), content: "x" } });
    expect(elsewhere.action).toBe("allow");
  });
});
