import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTempDir, removeTempDirs, writeFiles } from "../../helpers/cli-harness.js";
import { post, startServe, type Served } from "../../helpers/serve-harness.js";

// `toolgate serve`'s `/v1/check` beside its verdict: `shadow`, what the shadow participants would have made
// of the call, only when that differs from the verdict: the strictest shadow answer (block > ask), the first
// on a tie, with its message. A real server process on a real project.

const plugin = (name: string, word: string, action: "block" | "ask") =>
  `export default { name: ${JSON.stringify(name)}, hooks: { pre_tool_call: (call) => String(call.args.text).includes(${JSON.stringify(word)}) ? { action: ${JSON.stringify(action)}, message: ${JSON.stringify(`${name} says no`)} } : undefined } };`;

const failingCommand = `${JSON.stringify(process.execPath)} -e "process.exit(1)"`;

function project(config: Record<string, unknown>): string {
  const dir = makeTempDir("repo", "serve-shadow-");
  writeFiles(dir, {
    "plugins/asker.mjs": plugin("asker", "deploy", "ask"),
    "plugins/blocker.mjs": plugin("blocker", "secret", "block"),
    "plugins/blocker-too.mjs": plugin("blocker-too", "secret", "block"),
    "plugins/reviewer.mjs": plugin("reviewer", "review", "ask"),
    "toolgate.config.json": JSON.stringify({ pluginsDir: false, protectPolicy: "off", ...config }),
  });
  return dir;
}

const servers: Served[] = [];
let shadowUrl: string;
let lenientUrl: string;
beforeAll(async () => {
  const shadow = { shadow: true };
  const watching = project({
    plugins: [
      ["./plugins/asker.mjs", {}, shadow],
      ["./plugins/blocker.mjs", {}, shadow],
      ["./plugins/blocker-too.mjs", {}, shadow],
      ["./plugins/reviewer.mjs", {}],
    ],
  });
  // A failing shadow hook under onHookError "allow": had it taken part, the call would have gone on anyway.
  const lenient = project({ onHookError: "allow", hooks: { pre_tool_call: [{ command: failingCommand, timeout: 30, shadow: true }] } });
  servers.push(await startServe(["--cwd", watching]), await startServe(["--cwd", lenient]));
  [shadowUrl, lenientUrl] = servers.map((server) => server.url) as [string, string];
}, 60_000);
afterAll(async () => {
  await Promise.all(servers.map((server) => server.stop()));
  removeTempDirs();
});

const check = async (url: string, text: string) => {
  const answer = await post(`${url}/v1/check`, { call: { id: "c1", name: "echo", args: { text } } });
  expect(answer.status).toBe(200);
  return answer.body as { verdict: { action: string; source?: unknown }; shadow?: unknown };
};

describe("toolgate serve /v1/check: the shadow's would-be verdict", () => {
  it("a shadow ask of an allowed call: shadow says ask, who and why", async () => {
    const answer = await check(shadowUrl, "deploy now");
    expect(answer.verdict).toMatchObject({ action: "allow" });
    expect(answer.shadow).toEqual({ verdict: "ask", source: { kind: "plugin", name: "asker" }, message: "asker says no" });
  });

  it("the strictest shadow answer, the first of two blocks: a block beats an ask that ran before it", async () => {
    const answer = await check(shadowUrl, "deploy the secret");
    expect(answer.verdict).toMatchObject({ action: "allow" });
    expect(answer.shadow).toEqual({ verdict: "block", source: { kind: "plugin", name: "blocker" }, message: "blocker says no" });
  });

  it("an enforced ask: a shadow ask changes nothing and is not said; a shadow block is", async () => {
    const asked = await check(shadowUrl, "review this deploy");
    expect(asked.verdict).toMatchObject({ action: "ask", source: { kind: "plugin", name: "reviewer" } });
    expect(asked).not.toHaveProperty("shadow");
    const blocked = await check(shadowUrl, "review this secret");
    expect(blocked.verdict).toMatchObject({ action: "ask" });
    expect(blocked.shadow).toMatchObject({ verdict: "block", source: { kind: "plugin", name: "blocker" } });
  });

  it("no shadow opinion at all: no field", async () => {
    expect(await check(shadowUrl, "hello")).not.toHaveProperty("shadow");
  });

  it('a failing shadow hook under onHookError "allow" would not have blocked: no field', async () => {
    const answer = await check(lenientUrl, "hello");
    expect(answer.verdict).toMatchObject({ action: "allow" });
    expect(answer).not.toHaveProperty("shadow");
  });
});
