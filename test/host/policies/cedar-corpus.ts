// The differential corpus for Cedar hooks: a policy set written to exercise permit, forbid, when and
// unless clauses, `has`, `like`, sets, `principal ==`/`is`, nested records and evaluation errors, and
// calls that reach every outcome (forbid, permit, no match, error) under several sessions.

export interface CorpusPolicy {
  text: string;
  /** Its `@message`, when it has one (what a block by it says). */
  message?: string;
}

export const corpusPolicies: CorpusPolicy[] = [
  {
    text: '@id("no-rm")\n@message("rm -rf is not allowed")\nforbid(principal, action == Action::"Bash", resource)\n  when { context.args has command && context.args.command like "*rm -rf*" };',
    message: "rm -rf is not allowed",
  },
  { text: '@id("read-ok")\npermit(principal, action in [Action::"Read", Action::"Grep"], resource);' },
  {
    text: '@id("no-env")\n@message("secrets stay put")\nforbid(principal, action in [Action::"Read", Action::"Write", Action::"Edit"], resource)\n  when { context.args has file_path && context.args.file_path like "*.env" };',
    message: "secrets stay put",
  },
  {
    text: '@id("safe-shell")\npermit(principal, action == Action::"Bash", resource)\n  when { context.args has command && ["git status", "ls"].contains(context.args.command) };',
  },
  {
    text: '@id("deploy-staging")\nforbid(principal, action == Action::"deploy", resource)\n  unless { context.args has env && context.args.env == "staging" };',
  },
  { text: '@id("big-timeout")\nforbid(principal, action == Action::"Bash", resource)\n  when { context.args has timeout && context.args.timeout > 600000 };' },
  {
    text: '@id("admin")\npermit(principal, action, resource)\n  when { context.session has user && context.session.user == "admin" }\n  unless { context.kind == "shell" };',
  },
  {
    text: '@id("codex-no-write")\n@message("codex does not write")\nforbid(principal == Agent::"codex", action == Action::"Write", resource);',
    message: "codex does not write",
  },
  { text: '@id("tags")\nforbid(principal, action == Action::"tag", resource)\n  when { context.args.tags.containsAny(["prod", "release"]) };' },
  { text: '@id("math")\nforbid(principal, action == Action::"math", resource) when { context.args.n > 5 };' },
  { text: '@id("nested")\npermit(principal, action == Action::"other", resource)\n  when { context.args has nested && context.args.nested.deep.x == "y" };' },
  {
    text: '@id("claude-other")\npermit(principal is Agent, action == Action::"other", resource)\n  when { context.args has a && context.args.a == 1 && principal == Agent::"claude-code" && context.tool == "other" };',
  },
];

export const corpusText = `${corpusPolicies.map((policy) => policy.text).join("\n\n")}\n`;

export interface CorpusCall {
  name: string;
  kind: string;
  args: Record<string, unknown>;
}

const kinds: Record<string, string> = { Bash: "shell", Read: "file_read", Write: "file_write" };
const argsByTool: Record<string, Record<string, unknown>[]> = {
  Bash: [
    { command: "rm -rf /" },
    { command: "cd x && rm -rf build" },
    { command: "git status" },
    { command: "ls" },
    { command: "npm test" },
    { command: "ls", timeout: 700000 },
    { command: "ls", timeout: 1000 },
    {},
  ],
  Read: [{ file_path: "src/a.ts" }, { file_path: ".env" }, { file_path: "config/prod.env" }],
  Write: [
    { file_path: "a.ts", content: "x" },
    { file_path: ".env", content: "K=v" },
  ],
  deploy: [{ env: "staging" }, { env: "prod" }, {}],
  tag: [{ tags: ["prod", "x"] }, { tags: ["dev"] }, { tags: [] }, {}],
  math: [{ n: 3 }, { n: 9 }, { n: "x" }, {}],
  other: [{ a: 1 }, { a: 2 }, { nested: { deep: { x: "y" } } }, { nested: { deep: { x: "z" } } }],
  // A tool no policy names: only the policies for every action apply.
  unnamed: [{ x: 1 }],
};

export const corpusCalls: CorpusCall[] = Object.entries(argsByTool).flatMap(([name, list]) =>
  list.map((args) => ({ name, kind: kinds[name] ?? "function", args })),
);

export const corpusSessions: { id: string; user?: string; agent?: string }[] = [
  { id: "s1" },
  { id: "s2", user: "admin" },
  { id: "s3", user: "bob", agent: "codex" },
  { id: "s4", agent: "claude-code" },
];
