import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveSettings } from "../settings.js";
import { PolicyProtection } from "./policy-protection.js";

let root: string;
let project: string;
let home: string;
let protection: PolicyProtection;

beforeAll(async () => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "toolgate-protect-")));
  project = join(root, "proj");
  home = join(root, "home");
  mkdirSync(join(project, "plugins"), { recursive: true });
  mkdirSync(join(project, "src"), { recursive: true });
  mkdirSync(join(project, "build"), { recursive: true });
  mkdirSync(home, { recursive: true });
  writeFileSync(join(project, "toolgate.config.json"), JSON.stringify({ plugins: ["toolgate-plugin-budget", "./policy/guard.ts"] }));
  writeFileSync(join(project, "package.json"), '{\n  "name": "app",\n  "devDependencies": {\n    "toolgate": "^1.0.0",\n    "vitest": "^4.0.0"\n  }\n}\n');
  symlinkSync(join(project, "toolgate.config.json"), join(project, "cfg-link.json"));
  symlinkSync(join(project, "cfg-link.json"), join(project, "cfg-chain.json"));
  symlinkSync(project, join(project, "self"));
  symlinkSync(join(project, "plugins"), join(root, "elsewhere"));
  symlinkSync(join(root, "nothing-here"), join(project, "dangling"));
  writeFileSync(join(project, "src", "main.ts"), "");
  writeFileSync(join(project, "plugins", "guard.mjs"), "");
  mkdirSync(join(project, "plugins", "pack", "dist"), { recursive: true });
  writeFileSync(join(project, "plugins", "pack", "dist", "deep.mjs"), "");
  const settings = await resolveSettings({ cwd: project, configFile: "toolgate.config.json" });
  protection = new PolicyProtection(settings, "block", home);
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

const bash = (command: string) => ({ name: "Bash", args: { command }, kind: "shell" });

describe("shell lines that change toolgate's policy are blocked", () => {
  const lines = [
    // the config file, every spelling
    "echo x > toolgate.config.json",
    "echo x >toolgate.config.json",
    "echo x > ./toolgate.config.ts",
    "echo x > PROJECT/toolgate.config.ts",
    "echo x > ./src/../toolgate.config.ts",
    "echo x > src//..//toolgate.config.yaml",
    "echo x >> toolgate.config.json",
    "echo x >| toolgate.config.mjs",
    ": > toolgate.config.json",
    "> toolgate.config.json",
    "exec 3> toolgate.config.json",
    "cat /tmp/x &> toolgate.config.json",
    "cd src && echo x > ../toolgate.config.json",
    "cd src; cd ..; rm toolgate.config.json",
    "cd PROJECT/src && mv /tmp/x ../toolgate.config.js",
    "D=.; echo > $D/toolgate.config.ts",
    'f=toolgate.config.json; echo {} > "$f"',
    "x=toolg; echo > ${x}ate.config.json",
    'echo hi > "$(echo toolgate.config.json)"',
    "cd $SOMEWHERE && rm toolgate.config.json",
    "for f in a toolgate.config.json; do rm $f; done",
    "echo {} | tee -a toolgate.config.json",
    "echo {} | tee /tmp/a toolgate.config.json",
    "ln -s ~/.bashrc toolgate.config.ts",
    "ln -sf /tmp/evil.json toolgate.config.json",
    "ln toolgate.config.json notes.txt",
    "ln -s PROJECT/toolgate.config.json /tmp/handle",
    "mv /tmp/x toolgate.config.ts",
    "mv toolgate.config.json /tmp/",
    "cp /tmp/toolgate.config.json .",
    "cp /tmp/toolgate.config.json PROJECT/",
    "cp -r /tmp/evil/. .",
    "cp -t . /tmp/toolgate.config.ts",
    "rm toolgate.config.json",
    "rm -f toolgate.*",
    "rm -rf .",
    "rm -rf ../proj",
    "rm -rf *",
    "rm -rf PROJECT",
    "sed -i 's/a/b/' toolgate.config.json",
    "sed -i.bak -e s/a/b/ toolgate.config.json",
    "sed --in-place=.orig 's/a/b/' toolgate.config.json",
    "perl -pi -e s/a/b/ toolgate.config.json",
    "truncate -s 0 toolgate.config.json",
    "chmod 000 toolgate.config.json",
    "chmod -R 777 .",
    "dd if=/dev/zero of=toolgate.config.json",
    "git checkout -- toolgate.config.json",
    "git checkout HEAD~3 -- toolgate.config.json",
    "git restore toolgate.config.json",
    "git rm toolgate.config.json",
    "git mv toolgate.config.json old.json",
    "git clean -fdx",
    "find . -name toolgate.config.json -delete",
    "find . -name 'toolgate.*' -exec rm {} +",
    "find . -delete",
    "bash -c 'rm toolgate.config.json'",
    'sh -c "echo > toolgate.config.json"',
    "sudo rm toolgate.config.json",
    "env X=1 rm toolgate.config.json",
    "python3 -c \"open('toolgate.config.json','w').write('{}')\"",
    "node -e \"require('fs').writeFileSync('toolgate.config.json', '{}')\"",
    "ls | grep toolgate | xargs rm",
    "touch toolgate.config.ts",
    // a relative path after a cd, joined to its folder as text: every spelling folds to the config
    "cd src && echo x > .//..//toolgate.config.json",
    "cd ./src/.. && touch ./toolgate.config.ts",
    "cd src/ && echo x > ../src/../toolgate.config.yml",
    "cd / && echo x > .PROJECT/toolgate.config.json",
    "cd / && touch .//.PROJECT//toolgate.config.ts",
    // the plugins folder
    "rm -rf plugins",
    "rm -rf plugins/",
    "rm -rf ./plugins/../plugins",
    "rm -rf plug*",
    "touch plugins/evil.ts",
    "cd plugins && touch evil.ts",
    "mkdir plugins/evil",
    "mkdir -p PROJECT/plugins/x",
    "cp /tmp/evil.ts plugins/",
    "cp /tmp/evil.ts plugins/evil.ts",
    "install -m 644 /tmp/x plugins/x.ts",
    "rsync -a /tmp/p/ plugins/",
    "rsync -a --delete /tmp/e/ ./",
    "tee plugins/evil.ts < /dev/null",
    "cat /tmp/x > plugins/x.ts",
    "mv plugins /tmp/old-plugins",
    "git rm -r plugins",
    "git restore plugins",
    "find plugins -delete",
    "echo x > policy/guard.ts",
    // .toolgate, the decisions log and the store
    "ln -sf ~/.bashrc .toolgate/decisions.jsonl",
    "ln -s ~/.bashrc .toolgate",
    "rm -rf .toolgate",
    "echo x > .toolgate/decisions.jsonl",
    "echo '{}' > .toolgate/store/budget.json",
    // the agents' hook settings
    "echo '{}' > .claude/settings.json",
    "echo x > .claude/settings.local.json",
    "rm -rf .claude",
    "echo x > .gemini/settings.json",
    "echo x > .codex/config.toml",
    "rm .codex/hooks.json",
    "echo x > .github/hooks/other.json",
    "rm -rf .github",
    "echo x > ~/.claude/settings.json",
    "echo x > $HOME/.claude/settings.json",
    "rm -rf ~/.codex",
    // the installed CLI and the npm plugins
    "rm -rf node_modules/toolgate",
    "echo x > node_modules/.bin/toolgate",
    "ln -sf /tmp/fake node_modules/.bin/toolgate",
    "cp /tmp/x node_modules/@toolgate/host/dist/index.js",
    "rm -rf node_modules/toolgate-plugin-budget",
    "npm install toolgate@0.0.1",
    "npm i ../evil-toolgate",
    "pnpm add file:../fork",
    "yarn add toolgate@npm:evil",
    "npm uninstall toolgate",
    "pnpm remove toolgate-plugin-budget",
    "npm link toolgate",
    "npm pkg set dependencies.toolgate=1",
    "echo x > package.json",
    "sed -i s/1.0.0/0.0.1/ package.json",
    // Codex's apply_patch, run as a command
    "apply_patch <<'EOF'\n*** Begin Patch\n*** Update File: toolgate.config.json\n@@\n-a\n+b\n*** End Patch\nEOF",
    "apply_patch '*** Begin Patch\n*** Add File: plugins/evil.ts\n+export default {}\n*** End Patch'",
    // a link already in the project that points at the config
    "echo x > cfg-link.json",
    // links on the way: a link to a link, a folder link in the middle, a link outside the project into it
    "echo x > cfg-chain.json",
    "echo x > self/toolgate.config.json",
    "echo x > ./self/self/plugins/evil.ts",
    "cd self/src && echo x > ../toolgate.config.json",
    "echo x > ROOT/elsewhere/evil.ts",
    "rm -rf ROOT/elsewhere/",
    // a glob that reaches into a protected folder by what it holds
    "find . -name 'guard.*' -delete",
    "find . -name guard.mjs -exec rm {} +",
    "shopt -s globstar; rm -f **/guard.mjs",
    "find . -name deep.mjs -delete",
    // a glob after a start only known at run time, that could end at a protected path or reach into one
    "rm -rf $X/plug*",
    'rm -rf "$X"/pl?gins',
    "cd $SOMEWHERE && rm -rf *",
    "cd $D; rm -rf p*/",
    "rm -rf $X/proj/plug*/x",
    "rm -f $X/p*s/g*",
    'find $D -name "toolgate.config.*" -delete',
    'find $D -name "gu?rd.*" -delete',
    "rm -rf $X/pro?",
    // relative after a cd, joined as text: a glob or a tree above the entry
    "cd src && rm -rf ../plug*/",
    "cd src && rm -rf ..//pl?gins//guard.*",
    "cd src && rm -rf ../",
    "cd src && rm -rf ../plugins/.",
    "cd / && rm -rf .PROJECT/pl*",
    "cd / && rm -rf .PROJECT/plugins/pack/**/deep.mjs",
  ];

  it.each(lines)("%s", (line) => {
    const decision = protection.check(bash(line.replaceAll("PROJECT", project).replaceAll("ROOT", root)));
    expect(decision?.action).toBe("block");
    expect(decision && "message" in decision ? decision.message : "").toMatch(/human/);
  });
});

describe("everyday shell lines stay allowed", () => {
  const lines = [
    "echo hi > src/index.ts",
    "rm -rf dist",
    "rm -rf build/*",
    "cd build && rm -rf *",
    "cat toolgate.config.json",
    "sed -n 1p toolgate.config.json",
    "sed 's/a/b/' toolgate.config.json > /tmp/x",
    "grep -r toolgate plugins",
    "ls -la plugins .toolgate",
    "cp toolgate.config.json /tmp/backup.json",
    "npm install",
    "npm ci",
    "npm install lodash",
    "pnpm add -D vitest",
    "npm run build",
    "npx vitest run",
    "rm -rf node_modules",
    "rm -rf node_modules && npm install",
    "find . -name node_modules -prune -exec rm -rf {} +",
    "trap 'rm -rf \"$TMP\"' EXIT",
    'rm -rf "$(pwd)/build"',
    'echo x > "$OUT"',
    "echo done > /tmp/log.txt",
    "git status",
    "git diff toolgate.config.json",
    "git add plugins toolgate.config.json",
    'git commit -m "update the toolgate config"',
    "git checkout -b feature",
    "git clean -n",
    "mkdir -p src/plugins-ui",
    "echo x > plugins.md",
    "touch src/toolgate.config.ts.md",
    "cat package.json",
    "tee /tmp/out.txt < src/index.ts",
    "mv src/a.ts src/b.ts",
    "cp -r src /tmp/src-copy",
    // a dangling link writes where it points, outside the policy; a path through a file has nothing below it
    "echo x > dangling",
    "echo x > src/main.ts/x",
    "echo x > self/src/new.ts",
    "find . -name '*.md' -delete",
    "shopt -s globstar; rm -f **/*.orig",
    'find $DIR -name "*.pyc" -delete',
    "rm -rf $X/**/*.orig",
    "rm -rf $X/*.log",
    "rm -rf $X/dist/*",
    "rm -rf $X/proj/src/*",
    "cd $D && rm -f *.o",
  ];

  it.each(lines)("%s", (line) => {
    expect(protection.check(bash(line))).toBeUndefined();
  });
});

describe("file tools that change toolgate's policy are blocked", () => {
  const calls: [string, () => { name: string; args: Record<string, unknown>; kind?: string }][] = [
    ["Claude Write, absolute", () => ({ name: "Write", args: { file_path: join(project, "toolgate.config.ts"), content: "export default {}" } })],
    ["Claude Write, ./x/../", () => ({ name: "Write", args: { file_path: "./x/../toolgate.config.ts", content: "" } })],
    ["Claude Edit", () => ({ name: "Edit", args: { file_path: join(project, "toolgate.config.json"), old_string: "a", new_string: "b" } })],
    [
      "Claude MultiEdit",
      () => ({ name: "MultiEdit", args: { file_path: join(project, ".claude/settings.json"), edits: [{ old_string: "a", new_string: "b" }] } }),
    ],
    ["Claude NotebookEdit", () => ({ name: "NotebookEdit", args: { notebook_path: join(project, "plugins/x.ipynb"), new_source: "x" } })],
    ["Claude Write through a link", () => ({ name: "Write", args: { file_path: join(project, "cfg-link.json"), content: "{}" } })],
    ["Gemini write_file", () => ({ name: "write_file", args: { file_path: "plugins/evil.ts", content: "x" } })],
    ["Gemini replace", () => ({ name: "replace", args: { file_path: "toolgate.config.json", old_string: "a", new_string: "b" } })],
    ["Copilot create", () => ({ name: "create", args: { path: join(project, "plugins/x.ts"), file_text: "x" } })],
    ["Copilot edit", () => ({ name: "edit", args: { path: join(project, ".github/hooks/toolgate.json"), old_str: "a", new_str: "b" } })],
    ["MCP write_file", () => ({ name: "mcp__fs__write_file", args: { path: join(project, "toolgate.config.json"), content: "{}" } })],
    [
      "MCP edit_file",
      () => ({ name: "edit_file", kind: "mcp", args: { path: join(project, ".gemini/settings.json"), edits: [{ oldText: "a", newText: "b" }] } }),
    ],
    [
      "MCP move_file onto",
      () => ({ name: "mcp__fs__move_file", args: { source: join(project, "x.json"), destination: join(project, "toolgate.config.json") } }),
    ],
    ["MCP move_file away", () => ({ name: "move_file", kind: "mcp", args: { source: join(project, "plugins"), destination: "/tmp/p" } })],
    ["MCP create_directory", () => ({ name: "mcp__fs__create_directory", args: { path: join(project, "plugins/evil") } })],
    ["an unknown MCP tool naming a path", () => ({ name: "mcp__x__delete_path", args: { path: join(project, ".toolgate") } })],
    // a file tool's glob (the tool expands it, picomatch-like): braces and extglobs before the first *
    ["MCP delete, a brace glob", () => ({ name: "mcp__fs__delete_files", args: { path: join(project, "plugin{s,x}/*") } })],
    ["MCP delete, an extglob", () => ({ name: "mcp__fs__delete_files", args: { path: join(project, "@(plugins|x)/*.ts") } })],
    ["MCP delete, an escaped glob", () => ({ name: "mcp__fs__delete_files", args: { path: join(project, "tool\\gate.config.*") } })],
    ["MCP delete, a glob over the folder's name", () => ({ name: "mcp__fs__delete_files", args: { path: join(project, "plug*/evil.ts") } })],
    ["MCP delete, a glob above the folder", () => ({ name: "mcp__fs__delete_files", args: { path: join(project, "?lugins/sub/*.ts") } })],
    ["MCP delete, a globstar", () => ({ name: "mcp__fs__delete_files", args: { path: join(project, "**/guard.mjs") } })],
    ["MCP delete, a globstar inside the folder", () => ({ name: "mcp__fs__delete_files", args: { path: join(project, "plugins/**/not-there-yet.ts") } })],
    ["MCP delete, a brace across folders", () => ({ name: "mcp__fs__delete_files", args: { path: join(project, "{src,plugins/sub}/*") } })],
    [
      "apply_patch Update",
      () => ({ name: "apply_patch", args: { input: "*** Begin Patch\n*** Update File: toolgate.config.json\n@@\n-a\n+b\n*** End Patch" } }),
    ],
    ["apply_patch Add", () => ({ name: "apply_patch", args: { input: "*** Begin Patch\n*** Add File: plugins/x.ts\n+x\n*** End Patch" } })],
    ["apply_patch Delete", () => ({ name: "apply_patch", args: { input: "*** Begin Patch\n*** Delete File: toolgate.config.json\n*** End Patch" } })],
    [
      "apply_patch Move to",
      () => ({
        name: "apply_patch",
        args: { input: "*** Begin Patch\n*** Update File: src/a.json\n*** Move to: toolgate.config.json\n@@\n-a\n+b\n*** End Patch" },
      }),
    ],
    ["a unified diff", () => ({ name: "apply_patch", args: { patch: "--- a/toolgate.config.json\n+++ b/toolgate.config.json\n@@ -1 +1 @@\n-a\n+b\n" } })],
    [
      "package.json: an Edit of the toolgate version",
      () => ({
        name: "Edit",
        args: { file_path: join(project, "package.json"), old_string: '"toolgate": "^1.0.0"', new_string: '"toolgate": "file:../evil"' },
      }),
    ],
    [
      "package.json: a Write that drops toolgate",
      () => ({ name: "Write", args: { file_path: join(project, "package.json"), content: '{ "name": "app", "devDependencies": { "vitest": "^4.0.0" } }' } }),
    ],
    ["package.json: an MCP move", () => ({ name: "mcp__fs__move_file", args: { source: join(project, "package.json"), destination: "/tmp/p.json" } })],
    ["Codex shell argv with workdir", () => ({ name: "shell", args: { command: ["bash", "-lc", "rm toolgate.config.json"], workdir: project } })],
    ["an MCP shell", () => ({ name: "mcp__box__execute_command", args: { command: "rm -rf plugins" } })],
  ];

  it.each(calls)("%s", (_label, call) => {
    expect(protection.check(call())?.action).toBe("block");
  });
});

describe("file tools that leave the policy alone are allowed", () => {
  const calls: [string, () => { name: string; args: Record<string, unknown>; kind?: string }][] = [
    ["Write src/index.ts", () => ({ name: "Write", args: { file_path: join(project, "src/index.ts"), content: "see toolgate.config.json and plugins" } })],
    [
      "Edit README with 'plugins' in the text",
      () => ({ name: "Edit", args: { file_path: join(project, "README.md"), old_string: "plugins", new_string: "toolgate.config.json" } }),
    ],
    ["Read the config", () => ({ name: "Read", args: { file_path: join(project, "toolgate.config.json") } })],
    ["MCP read_text_file", () => ({ name: "mcp__fs__read_text_file", args: { path: join(project, "toolgate.config.json") } })],
    ["MCP list_directory", () => ({ name: "list_directory", kind: "mcp", args: { path: join(project, "plugins") } })],
    ["MCP delete, a glob in src", () => ({ name: "mcp__fs__delete_files", args: { path: join(project, "src/*.ts") } })],
    ["MCP delete, logs beside the config", () => ({ name: "mcp__fs__delete_files", args: { path: join(project, "*.log") } })],
    ["MCP delete, a glob over other folders' names", () => ({ name: "mcp__fs__delete_files", args: { path: join(project, "s*/x.ts") } })],
    ["MCP delete, a globstar over what no policy folder holds", () => ({ name: "mcp__fs__delete_files", args: { path: join(project, "**/*.md") } })],
    ["MCP delete, a brace over other folders", () => ({ name: "mcp__fs__delete_files", args: { path: join(project, "{src,build}/*.js") } })],
    ["Grep plugins", () => ({ name: "Grep", args: { pattern: "x", path: join(project, "plugins") } })],
    ["apply_patch to src", () => ({ name: "apply_patch", args: { input: "*** Begin Patch\n*** Update File: src/a.ts\n@@\n-a\n+b\n*** End Patch" } })],
    [
      "package.json: an Edit adding a dependency",
      () => ({
        name: "Edit",
        args: { file_path: join(project, "package.json"), old_string: '"vitest": "^4.0.0"', new_string: '"vitest": "^4.0.0",\n    "lodash": "^4.0.0"' },
      }),
    ],
    [
      "package.json: a Write that keeps the toolgate line",
      () => ({
        name: "Write",
        args: {
          file_path: join(project, "package.json"),
          content: '{\n  "name": "app",\n  "devDependencies": {\n    "toolgate": "^1.0.0",\n    "zod": "^4.0.0"\n  }\n}\n',
        },
      }),
    ],
    ["Write outside the project", () => ({ name: "Write", args: { file_path: "/tmp/toolgate-notes.txt", content: "x" } })],
  ];

  it.each(calls)("%s", (_label, call) => {
    expect(protection.check(call())).toBeUndefined();
  });
});

describe("protectPolicy", () => {
  it('"ask" asks instead of blocking, with the same message', async () => {
    const asking = new PolicyProtection(await resolveSettings({ cwd: project, configFile: "toolgate.config.json" }), "ask", home);
    const decision = asking.check(bash("rm -rf plugins"));
    expect(decision).toMatchObject({ action: "ask", message: expect.stringMatching(/the plugins folder/) });
  });

  it("names what the call hit and says a human must make the change", () => {
    const decision = protection.check(bash("echo x > toolgate.config.json"));
    expect(decision).toMatchObject({ action: "block" });
    expect(decision && "message" in decision && decision.message).toMatch(/toolgate's config file .*toolgate\.config\.json.*a human must make this change/s);
  });
});
