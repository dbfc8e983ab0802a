// One Cedar policy file, the same verdict on every surface: the host itself, the AI SDK adapter (its
// real generateText with a mock model), `toolgate hook claude-code`, `toolgate serve` and `toolgate
// mcp-proxy` (real processes, through the shared harness in test/helpers/policy-surfaces.ts). Cedar's
// forbid blocks with its @message, a permit allows, no match lets the call through, and a policy that
// errors on the call blocks: everywhere alike.
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { makeTempDir, removeTempDirs, writeFiles } from "../../helpers/cli-harness.js";
import { type PolicySurfaces, startPolicySurfaces } from "../../helpers/policy-surfaces.js";

vi.setConfig({ testTimeout: 120_000 });

const policies = `@id("no-root-delete")
@message("Cedar: no root deletes")
forbid(principal, action == Action::"Bash", resource)
  when { context.args has command && context.args.command like "rm -rf /*" };

@id("git-read-only")
permit(principal, action == Action::"Bash", resource)
  when { context.args has command && ["git status", "git diff"].contains(context.args.command) };

@id("sudo-needs-user")
forbid(principal, action == Action::"Bash", resource)
  when { context.args has command && context.args.command like "sudo *" && context.args.user == "root" };
`;

const cases: [string, Record<string, unknown>, RegExp | "allow"][] = [
  ["a forbid blocks with its @message", { command: "rm -rf /home" }, /Cedar: no root deletes/],
  ["a permit allows", { command: "git status" }, "allow"],
  ["no policy matched: the call goes through", { command: "echo hi" }, "allow"],
  [
    "a policy that errors on the call blocks, naming it and its line",
    { command: "sudo ls" },
    /policy sudo-needs-user at policies\.cedar:12:\d+: record does not have the attribute `user`/,
  ],
];

let surfaces: PolicySurfaces;
beforeAll(async () => {
  const dir = makeTempDir("repo", "cedar-surfaces-");
  writeFiles(dir, {
    "toolgate.config.json": JSON.stringify({ hooks: { pre_tool_call: [{ type: "cedar", policies: "policies.cedar" }] } }),
    "policies.cedar": policies,
  });
  surfaces = await startPolicySurfaces(dir);
});
afterAll(async () => {
  await surfaces?.close();
  removeTempDirs();
});

describe("the same Cedar policy file gives the same verdict on every surface", () => {
  for (const [title, args, expected] of cases) {
    it(title, async () => {
      for (const [surface, decide] of Object.entries(surfaces.decide)) {
        const outcome = await decide(args);
        if (expected === "allow") expect(outcome, surface).toEqual({ action: "allow", args });
        else {
          expect(outcome.action, surface).toBe("block");
          expect(outcome.action === "block" ? outcome.reason : "", surface).toMatch(expected);
        }
      }
    });
  }
});
