// `toolgate decisions` and `--shadow` through the real CLI, over a log a real host wrote: a project whose
// config puts a plugin, a hook and a rule in shadow mode beside an enforced rule.
import { createHost } from "@toolgate/host";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTempDir, parseJsonLines, removeTempDirs, runCli, writeFiles } from "../../helpers/cli-harness.js";
import { logOf } from "./records.js";

afterAll(removeTempDirs);

const lines = (text: string) => text.split("\n").filter((line) => line !== "");

const files = {
  "plugins/no-tmp.mjs": `export default { name: "no-tmp", hooks: { pre_tool_call: (call) => String(call.args.path ?? "").startsWith("/tmp") ? { action: "block", message: "tmp is off limits" } : undefined } };`,
  "toolgate.config.json": JSON.stringify(config(true)),
};

/** The project's config: the new plugin, hook and rule in shadow, or (`shadow` false) enforced. */
function config(shadow: boolean) {
  return {
    pluginsDir: false,
    protectPolicy: "off",
    decisions: { log: ".toolgate/decisions.jsonl", args: "full" },
    plugins: [["./plugins/no-tmp.mjs", {}, { shadow }]],
    hooks: { pre_tool_call: [{ type: "cel", shadow, rules: [{ expression: 'tool == "Deploy"', action: "ask", message: "deploys need a human" }] }] },
    permissions: shadow ? { deny: ["Delete"], shadow: { deny: ["Write:path=*.lock"] } } : { deny: ["Delete", "Write:path=*.lock"] },
  };
}

let dir: string;
beforeAll(async () => {
  dir = makeTempDir("os", "shadow-decisions-");
  writeFiles(dir, files);
  const host = await createHost({ cwd: dir, logger: false });
  await host.checkToolCall({ id: "c1", name: "Read", args: { path: "notes.txt" } }); // nobody objects
  await host.checkToolCall({ id: "c2", name: "Read", args: { path: "/tmp/x" } }); // the shadow plugin would block
  await host.checkToolCall({ id: "c3", name: "Deploy", args: {} }); // the shadow hook would ask
  await host.checkToolCall({ id: "c4", name: "Write", args: { path: "pnpm.lock" } }); // the shadow rule would deny
  await host.checkToolCall({ id: "c5", name: "Delete", args: { path: "/tmp/y" } }); // blocked anyway: the shadow block changes nothing
  await host.close();
}, 30_000);

describe("toolgate decisions with shadow answers", () => {
  it("shows each shadow answer that would have changed the verdict apart, after who decided", async () => {
    const run = await runCli(["decisions", "--cwd", dir]);
    expect(run.stderr).toBe("");
    const shown = lines(run.stdout).map((line) => line.replace(/^\S+ {2}/, ""));
    expect(shown).toEqual([
      "library           ALLOW  Read notes.txt  -",
      "library           ALLOW  Read /tmp/x  -  [shadow] plugin no-tmp would have blocked: tmp is off limits",
      "library           ALLOW  Deploy  -  [shadow] cel 1 rule would have asked: deploys need a human",
      `library           ALLOW  Write pnpm.lock  -  [shadow] rule Write:path=*.lock would have blocked: ${denied("Write:path=*.lock")}`,
      `library           BLOCK  Delete /tmp/y  rule Delete: ${denied("Delete")}`,
    ]);
  });

  it("--shadow lists only the calls a shadow participant would have changed", async () => {
    const run = await runCli(["decisions", "--cwd", dir, "--shadow", "--json"]);
    expect(run.code).toBe(0);
    const records = parseJsonLines(run.stdout) as { callId: string; participants: { shadow?: true }[] }[];
    expect(records.map((record) => record.callId)).toEqual(["c2", "c3", "c4"]);
    // c5 has a shadow block too, but the call was blocked anyway.
    const all = parseJsonLines((await runCli(["decisions", "--cwd", dir, "--json"])).stdout) as typeof records;
    expect(all.find((record) => record.callId === "c5")!.participants.some((participant) => participant.shadow === true)).toBe(true);
  });

  it("--shadow with other filters narrows further", async () => {
    const run = await runCli(["decisions", "--cwd", dir, "--shadow", "--tool", "Read"]);
    expect(lines(run.stdout)).toHaveLength(1);
    expect(run.stdout).toContain("would have blocked: tmp is off limits");
  });

  it("toolgate diff from the shadow config to the enforcing one, over the same log, changes the calls --shadow lists", async () => {
    writeFiles(dir, { "enforce.config.json": JSON.stringify(config(false)) });
    const run = await runCli([
      "diff",
      "--cwd",
      dir,
      "--base",
      join(dir, "toolgate.config.json"),
      "--head",
      join(dir, "enforce.config.json"),
      "--json",
      logOf(dir),
    ]);
    expect(run.code).toBe(1);
    const report = JSON.parse(run.stdout) as { groups: { calls: { call: { id: string } }[] }[] };
    const changed = report.groups.flatMap((group) => group.calls.map((entry) => entry.call.id)).sort();
    const shadowed = (parseJsonLines((await runCli(["decisions", "--cwd", dir, "--shadow", "--json"])).stdout) as { callId: string }[]).map(
      (record) => record.callId,
    );
    expect(changed).toEqual(shadowed);
  });
});

function denied(rule: string): string {
  return `this call is denied by the project's permissions (deny rule "${rule}")`;
}
