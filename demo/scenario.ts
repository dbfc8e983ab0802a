import type { Intent, Memory, Step } from "./fake-model.js";

/** One act of the demo: what the user asks, and how the scripted model means to go about it. */
export interface Act {
  title: string;
  /** One line telling the reader what this act shows. */
  premise: string;
  request: string;
  plan: Step[];
}

const readFile = (path: string): Intent => ({ name: "read_file", args: { path } });
const writeFile = (path: string, content: string): Intent => ({ name: "write_file", args: { path, content } });
const terminal = (command: string): Intent => ({ name: "terminal", args: { command } });
const search = (query: string): Intent => ({ name: "search", args: { query } });

/** The model edits the file it read, so it writes back what it actually saw. */
function tick(memory: Memory, path: string, item: string, suffix = ""): Intent {
  const content = memory.files.get(path) ?? "";
  return writeFile(path, content.replace(`- [ ] ${item}`, `- [x] ${item}${suffix}`));
}

export const tidyUp: Act = {
  title: "Act 1: an ordinary working session",
  premise:
    "The operator's policy refuses destructive shell commands (block-dangerous-shell), allows 3 calls per tool\n" +
    "per minute (rate-limit), and records every decision (audit-log).",
  request: "Tidy up this project: the README is done, so tick it off in notes.md; clear out the build output; then find anything left to fix.",
  plan: [
    { say: () => "I'll start by reading notes.md.", calls: () => [readFile("notes.md")] },
    {
      say: () => 'notes.md lists "write the README" as open. I\'ll tick it off.',
      calls: (memory) => [tick(memory, "notes.md", "write the README")],
    },
    {
      say: () => "Next, the build output. Quickest way to get a clean slate:",
      calls: () => [terminal("rm -rf /")],
      narrower: {
        say: () => "Understood, I won't delete the root directory; I'll remove only ./build instead.",
        calls: () => [terminal("rm -rf ./build")],
      },
    },
    {
      say: () => "Now let me look for anything left to fix, all at once.",
      calls: () => ["TODO", "FIXME", "console.log", "XXX", "HACK"].map(search),
    },
    {
      say: () => "And a last sweep for leaked secrets.",
      calls: () => ["password", "api_key"].map(search),
    },
    { say: summarizeSession },
  ],
};

export const readOnly: Act = {
  title: "Act 2: the operator flips the project to read-only",
  premise: "The operator adds read-only-mode to the policy and restarts the agent: a new host, a new conversation,\nthe same project folder.",
  request: "Release 1.0 is approved. Please record that in notes.md.",
  plan: [
    { say: () => "Let me read notes.md first.", calls: () => [readFile("notes.md")] },
    {
      say: () => "I'll tick off the release item.",
      calls: (memory) => [tick(memory, "notes.md", "ship release 1.0", " (approved)")],
    },
    {
      say: (memory) =>
        memory.proposals.length === 0
          ? "Done: notes.md records the approval."
          : `Here is the change for you to apply, or to ask me for when writes are allowed again:\n\n${memory.proposals.join("\n\n")}`,
    },
  ],
};

export const noCode: Act = {
  title: "Act 3: policy without code",
  premise:
    "The operator writes no plugin: a shell script (guards/no-network.sh, a command hook) vetoes network tools, and a\n" +
    "permission rule in no-code.config.yaml denies sudo. Both go through the same gate as the plugins.",
  request: "Update left-pad to its latest version.",
  plan: [
    { say: () => "I'll check the latest published version first.", calls: () => [terminal("curl -s https://registry.npmjs.org/left-pad/latest")] },
    { say: () => "Then I'll install it system-wide.", calls: () => [terminal("sudo npm install -g left-pad")] },
    { say: () => "I'll look at what the project has instead.", calls: () => [terminal("ls")] },
    { say: () => "I could not update left-pad: fetching and installing need your hand. Run `npm view left-pad version` and tell me what to change." },
  ],
};

/** The closing message of act 1, written from what the model learned, not from the script. */
function summarizeSession(memory: Memory): string {
  const lines = ["Summary of this session:"];
  for (const { intent, content } of memory.results) {
    if (intent.name === "write_file") lines.push(`- updated ${String(intent.args.path)}`);
    if (intent.name === "terminal") lines.push(`- ${content.split("\n")[0]}`);
  }
  for (const refusal of memory.refusals.filter((refusal) => refusal.kind === "refused"))
    lines.push(`- did not run ${describe(refusal.intent)} (${refusal.plugin} refused it)`);
  const findings = memory.results
    .filter(({ intent, content }) => intent.name === "search" && !content.startsWith("no matches"))
    .flatMap(({ content }) => content.split("\n"));
  if (findings.length > 0) lines.push("- left to fix:", ...findings.map((finding) => `    ${finding}`));
  const unsearched = [...memory.refusals.filter((refusal) => refusal.kind === "rate-limited").map((refusal) => refusal.intent), ...memory.dropped];
  if (unsearched.length > 0)
    lines.push(
      `- not checked yet (rate-limited): ${unsearched.map((intent) => JSON.stringify(intent.args.query ?? intent.name)).join(", ")}; I can run these once the limit resets.`,
    );
  return lines.join("\n");
}

function describe(intent: Intent): string {
  return typeof intent.args.command === "string" ? `\`${intent.args.command}\`` : intent.name;
}
