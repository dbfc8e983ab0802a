import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type PolicySurfaces, type SurfaceDecision, startPolicySurfaces } from "../../helpers/policy-surfaces.js";
import { createTempProject, type TempProject } from "../../helpers/temp-project.js";

/**
 * One CEL policy file, the same calls to a tool named `Bash` through the host, the AI SDK adapter,
 * `toolgate hook claude-code`, `toolgate serve` and `toolgate mcp-proxy` (real processes, through the
 * shared harness in test/helpers/policy-surfaces.ts): every surface reaches the same verdict with the
 * same reason. The rules read `tool` and `args` only: `kind` and
 * `agent` are what surfaces rightly tell apart (an MCP tool is `mcp`, Claude's `Bash` is `shell`).
 */
const rules = `# toolgate CEL rules for the shell
- expression: args.command.contains("rm -rf /")
  action: block
  message: refusing destructive root delete
- expression: args.command.startsWith("git push")
  action: ask
  message: pushes need a human
- expression: args.command.startsWith("make") && args.target == "prod"
  action: block
- expression: tool == "Bash" && args.command == "pwd"
  action: allow
  message: pwd is harmless
- expression: args.command.matches("^(sudo|doas)\\\\s")
  action: block
`;

const files = {
  "policy/shell.cel.yaml": rules,
  "toolgate.config.json": JSON.stringify({
    pluginsDir: false,
    protectPolicy: "off",
    hooks: { pre_tool_call: [{ type: "cel", matcher: "Bash", file: "policy/shell.cel.yaml" }] },
  }),
};

const cases: [string, string][] = [
  ["a root delete is blocked with the rule's message", "rm -rf /"],
  ["a push asks", "git push origin main"],
  ["a rule that fails on the call (no args.target) blocks, naming it", "make"],
  ["an allow rule allows", "pwd"],
  ["no rule holds: no opinion, the call runs", "echo hello"],
  ["a regex rule blocks with the default message", "sudo reboot"],
];

let project: TempProject;
let surfaces: PolicySurfaces;
beforeAll(async () => {
  project = createTempProject(files);
  surfaces = await startPolicySurfaces(project.dir);
}, 60_000);
afterAll(async () => {
  await surfaces?.close();
  project?.remove();
});

/** What a surface must say, given the host's: the same, less an ask's reason where the format has no room for it. */
function expectedOn(surface: string, reference: SurfaceDecision): SurfaceDecision {
  return reference.action === "ask" && surface === "ai-sdk" ? { action: "ask" } : reference;
}

describe("one CEL policy file, the same verdict and reason on every surface", () => {
  it.each(cases)(
    "%s",
    async (_case, command) => {
      const decisions = await Promise.all(Object.entries(surfaces.decide).map(async ([name, decide]) => [name, await decide({ command })] as const));
      const [, reference] = decisions[0]!;
      for (const [name, decision] of decisions) expect(decision, name).toEqual(expectedOn(name, reference));
    },
    60_000,
  );

  it("the reference decisions are the rules' own", async () => {
    const reference = await Promise.all(cases.map(([, command]) => surfaces.decide.host({ command })));
    const by = 'Tool call blocked by cel hook "policy/shell.cel.yaml"';
    expect(reference).toEqual([
      { action: "block", reason: `${by}: refusing destructive root delete` },
      { action: "ask", reason: 'Approval needed (cel hook "policy/shell.cel.yaml"): pushes need a human' },
      {
        action: "block",
        reason: expect.stringMatching(
          /^Tool call blocked by cel hook "policy\/shell\.cel\.yaml": blocked: CEL rule policy\/shell\.cel\.yaml:8: rules\[2\] \(args\.command\.startsWith\("make"\) && args\.target == "prod"\) failed on this call: .*target/,
        ),
      },
      { action: "allow", args: { command: "pwd" } },
      { action: "allow", args: { command: "echo hello" } },
      { action: "block", reason: `${by}: blocked by CEL rule policy/shell.cel.yaml:13: rules[4]: args.command.matches("^(sudo|doas)\\\\s")` },
    ]);
  });
});
