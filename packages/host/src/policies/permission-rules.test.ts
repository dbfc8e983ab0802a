import type { ToolArgs } from "@toolgate/plugin-sdk";
import { describe, expect, it } from "vitest";
import { type PermissionsConfig, PermissionRules } from "./permission-rules.js";

const where = { cwd: "/work/project", home: "/home/me" };

/** The action the rules decide, or "none" when no rule matches; `kind` null for a call with no kind. */
function decide(config: PermissionsConfig, args: ToolArgs, tool = "bash", kind: string | null = "shell"): string {
  return new PermissionRules(config, where).check(tool, args, kind ?? undefined)?.decision.action ?? "none";
}
const onCommand = (config: PermissionsConfig, command: unknown) => decide(config, { command });

// An allow rule carved out of an ask rule: "allow" when it lifts, "ask" when it does not apply.
const gitStatus = { ask: ["bash"], allow: ["bash:command=git status*"] };

describe("a shell tool's command: an allow lifts only when every command is allowed", () => {
  it.each([
    "git status",
    "git status -s",
    "  git status",
    "\tgit status",
    " \t git status\n",
    "git status; git status -s",
    "git status && git status --short",
    "git status | git status",
    "git status\ngit status -s",
    "(git status)",
    "{ git status; }",
    "git status # rm -rf ~",
    "git status > /tmp/status.txt",
  ])("%j is allowed", (command) => {
    expect(onCommand(gitStatus, command)).toBe("allow");
  });

  it.each([
    "git status; rm -rf ~",
    "git status;rm -rf ~",
    "git status && rm -rf ~",
    "git status&&rm -rf ~",
    "git status || rm -rf ~",
    "git status | rm -rf ~",
    "git status |& rm -rf ~",
    "git status & rm -rf ~",
    "git status\nrm -rf ~",
    "git status\r\nrm -rf ~",
    "git status\n  rm -rf ~",
    "(git status; rm -rf ~)",
    "{ git status; rm -rf ~; }",
    "git status $(rm -rf ~)",
    'git status "$(rm -rf ~)"',
    "git status `rm -rf ~`",
    "git status <(rm -rf ~)",
    "git status >(rm -rf ~)",
    "git status > $(rm -rf ~)",
    "git status; sh -c 'git status'",
    "git status; bash -c 'rm -rf ~'",
    "git status; eval 'rm -rf ~'",
    "git status | xargs rm",
    "git status; f() { rm -rf ~; }",
    "git status <<EOF\n$(rm -rf ~)\nEOF",
    "git status ${X:-$(rm -rf ~)}",
    'git status "${X:-`rm -rf ~`}"',
    "rm -rf ~; git status",
    "ls",
    "",
    "   ",
  ])("%j is not allowed by git status*", (command) => {
    expect(onCommand(gitStatus, command)).toBe("ask");
  });

  it.each([
    'echo "unterminated',
    "echo 'unterminated",
    "echo $(ls",
    "echo `ls",
    "(ls",
    "{ ls",
    `echo ${"$(".repeat(12)}ls${")".repeat(12)}`,
    "sh -c 'echo \"unterminated'",
    "ls; bash -c 'ls $(pwd'",
    "eval 'echo \"x'",
    "cat <<EOF\n$(rm -rf ~\nEOF",
  ])("%j cannot be parsed: even allow-everything does not allow it", (command) => {
    expect(onCommand({ ask: ["bash"], allow: ["bash:command=*"] }, command)).toBe("ask");
    // Without an ask rule the allow just does not apply: it never turns into a block by itself.
    expect(onCommand({ allow: ["bash:command=*"] }, command)).toBe("none");
  });

  it.each([
    ['git commit -m "a; rm -rf ~"', "git commit*"],
    ["git commit -m 'x && y || z'", "git commit*"],
    ['git commit -m "a | b"', "git commit*"],
    ['git commit -m "line one\nline two"', "git commit*"],
    ["git commit -m a\\;b", "git commit*"],
    ["npm run test:unit", "npm run test:*"],
  ])("quoted operators are not separators: %j is one command, allowed by %j", (command, glob) => {
    expect(onCommand({ ask: ["bash"], allow: [`bash:command=${glob}`] }, command)).toBe("allow");
  });

  it.each([
    ["sudo git status", "wrapped in sudo"],
    ["env A=1 git status", "wrapped in env"],
    ["A=1 git status", "after an assignment"],
    ["/usr/bin/git status", "by its full path"],
  ])("%j (%s) is not allowed by a rule on the bare command", (command) => {
    expect(onCommand(gitStatus, command)).toBe("ask");
  });

  it("a rule that names the wrapper allows it, and still not what it runs nested", () => {
    const sudoApt = { ask: ["bash"], allow: ["bash:command=sudo apt*"] };
    expect(onCommand(sudoApt, "sudo apt update")).toBe("allow");
    expect(onCommand(sudoApt, "sudo apt update; sudo rm -rf /")).toBe("ask");
    const shells = { ask: ["bash"], allow: ["bash:command=sh -c *", "bash:command=bash -c *"] };
    expect(onCommand(shells, "sh -c 'rm -rf ~'")).toBe("ask");
    const find = { ask: ["bash"], allow: ["bash:command=find *"] };
    expect(onCommand(find, "find . -name '*.ts'")).toBe("allow");
    expect(onCommand(find, "find . -exec rm {} \\;")).toBe("ask");
  });
});

// @toolgate/sandbox's rewrite of a shell call: bubblewrap with options that only take away, then bash -c the line as asked.
const sandboxed = (
  line: string,
  options = "--die-with-parent --new-session --unshare-user-try --unshare-net --ro-bind / / --dev /dev --proc /proc --tmpfs /tmp --bind /work/project /work/project --ro-bind /work/project/toolgate.config.json /work/project/toolgate.config.json --tmpfs /home/me/.ssh --remount-ro /home/me/.ssh --ro-bind /dev/null /home/me/.netrc",
) => `/usr/bin/bwrap ${options} -- /usr/bin/bash -c '${line.replaceAll("'", "'\\''")}'`;

describe("a contained shell call: the rules decide on what runs inside the sandbox", () => {
  it.each(["git status", "git status -s && git status --short", "git status; git status -s"])("an allow lifts the ask for %j run in the sandbox", (line) => {
    expect(onCommand(gitStatus, line)).toBe("allow");
    expect(onCommand(gitStatus, sandboxed(line))).toBe("allow");
  });

  it.each(["git status; rm -rf ~", "ls", "git status && curl x | sh", "sudo git status"])(
    "%j run in the sandbox is no more allowed than outside it",
    (line) => {
      expect(onCommand(gitStatus, sandboxed(line))).toBe("ask");
    },
  );

  it.each([
    ["--chdir /", "a folder of its choosing"],
    ["--setenv GIT_CONFIG_GLOBAL /tmp/x", "an environment variable"],
    ["--bind /home/me /work/project", "a path bound elsewhere"],
    ["--ro-bind / / --cap-add ALL", "capabilities"],
    ["--uid 0", "another user id"],
    ["--dev /", "a device folder in another place"],
    ["--ro-bind /etc/shadow /work/project/x", "a file bound elsewhere"],
    ["--file 3 /work/project/x", "a file from a descriptor"],
    ["--ro-bind-data 3 /work/project/x", "data from a descriptor"],
  ])("bwrap %s (%s) changes what runs: the allow does not vouch for it", (options) => {
    expect(onCommand(gitStatus, sandboxed("git status", `--ro-bind / / ${options}`))).toBe("ask");
  });

  it.each([
    ["/usr/bin/bwrap --ro-bind / / /usr/bin/bash -c 'git status'", "no -- before the command"],
    ["/usr/bin/bwrap --ro-bind / / -- /usr/bin/bash -lc 'git status'", "a login shell"],
    ["/usr/bin/bwrap --ro-bind / / -- /usr/bin/bash -c 'git status' x", "positional parameters"],
    ["sudo /usr/bin/bwrap --ro-bind / / -- /usr/bin/bash -c 'git status'", "behind sudo"],
    ["/usr/bin/bwrap --ro-bind / / --", "no command at all"],
  ])("%j (%s) is not a sandbox the allow looks through", (command) => {
    expect(onCommand(gitStatus, command)).toBe("ask");
  });

  it("deny and ask rules still see every command inside the sandbox, and the sandbox itself", () => {
    expect(onCommand({ deny: ["bash:command=*curl*"], allow: ["bash"] }, sandboxed("git status && curl x"))).toBe("block");
    expect(onCommand({ deny: ["bash:command=rm *"] }, sandboxed("cd /tmp; rm -rf x"))).toBe("block");
    expect(onCommand({ ask: ["bash:command=*bwrap*"] }, sandboxed("git status"))).toBe("ask");
  });
});

describe("a shell tool's command: a deny or ask matches when any command matches", () => {
  it.each([
    "rm x",
    "  rm x",
    "\trm x",
    "ls; rm x",
    "ls;rm x",
    "ls && rm x",
    "ls || rm x",
    "ls | rm x",
    "ls |& rm x",
    "ls & rm x",
    "ls\nrm x",
    "ls\n\n   rm x",
    "(ls; rm x)",
    "{ ls; rm x; }",
    "echo $(rm x)",
    'echo "$(rm x)"',
    "echo `rm x`",
    "diff <(rm x) y",
    "ls > $(rm x)",
    "sh -c 'rm x'",
    'bash -c "ls; rm x"',
    "eval 'rm x'",
    "sudo rm x",
    "sudo -u root rm x",
    "env A=1 rm x",
    "A=1 rm x",
    "/bin/rm x",
    "ls | xargs rm",
    "find . -exec rm {} \\;",
    "nohup rm x",
    "timeout 5 rm x",
    "X=rm; $X -rf /",
    "f() { rm x; }",
    "cat <<EOF\n$(rm x)\nEOF",
    "echo ${X:-$(rm x)}",
    "python3 -c \"import shutil; shutil.rmtree('/x')\"",
  ])("deny rm* blocks %j", (command) => {
    expect(onCommand({ deny: ["bash:command=rm*"] }, command)).toBe("block");
    expect(onCommand({ ask: ["bash:command=rm*"] }, command)).toBe("ask");
  });

  it.each(["ls\nsudo reboot", "ls;sudo reboot", "cd /tmp && SUDO rm -rf /", 'bash -c "sudo reboot"'])("deny *sudo* blocks %j", (command) => {
    expect(onCommand({ deny: ["bash:command=*sudo*"] }, command)).toBe("block");
  });

  it.each([
    "git push",
    " git push",
    "\tgit push --force",
    "cd repo && git push",
    "git  push",
    'git "push"',
    "git commit -m x\ngit push",
    'git push origin "a\nb"',
  ])("ask git push* asks for %j", (command) => {
    expect(onCommand({ ask: ["bash:command=git push*"] }, command)).toBe("ask");
  });

  it.each(['echo "rm x"', "echo rm x", "grep -r 'rm -rf' .", "git commit -m 'rm x'"])("deny rm* leaves %j alone: quoted text is not a command", (command) => {
    expect(onCommand({ deny: ["bash:command=rm*"] }, command)).toBe("none");
  });

  it("deny *>* sees redirections, which an allow with a trailing * lets through", () => {
    expect(onCommand({ deny: ["bash:command=*>*"], allow: ["bash:command=git status*"] }, "git status > ~/.bashrc")).toBe("block");
  });

  it("a deny still wins over an allow that covers the whole line", () => {
    expect(onCommand({ deny: ["bash:command=rm*"], allow: ["bash:command=*"] }, "ls && rm x")).toBe("block");
  });
});

describe("which calls and arguments are read as shell", () => {
  it.each(["command", "cmd", "script"])("a shell tool's %s is read command by command", (key) => {
    const rules = { ask: ["bash"], allow: [`bash:${key}=git status*`] };
    expect(decide(rules, { [key]: "git status; rm -rf ~" })).toBe("ask");
    expect(decide(rules, { [key]: "git status" })).toBe("allow");
    expect(decide({ deny: [`bash:${key}=rm*`] }, { [key]: "ls\nrm x" })).toBe("block");
  });

  it("another argument of a shell tool is matched as it is", () => {
    const rules = { ask: ["bash"], allow: ["bash:description=list*"] };
    expect(decide(rules, { command: "ls", description: "list; then rm" })).toBe("allow");
  });

  it("an argv array is read as the command line it runs", () => {
    expect(onCommand(gitStatus, ["git", "status"])).toBe("allow");
    expect(onCommand(gitStatus, ["git", "status; rm -rf ~"])).toBe("allow"); // one argument to git, not two commands
    expect(onCommand(gitStatus, ["bash", "-c", "git status; rm -rf ~"])).toBe("ask");
    expect(onCommand({ deny: ["bash:command=rm*"] }, ["bash", "-c", "git status; rm -rf ~"])).toBe("block");
    expect(onCommand({ deny: ["bash:command=rm*"] }, ["sudo", "rm", "-rf", "/"])).toBe("block");
  });

  it.each([
    [["bash", "-lc", "git status"], "allow"],
    [["/bin/sh", "-c", "git status -s"], "allow"],
    [["bash", "-e", "-c", "git status && git status"], "allow"],
    // zsh reads another language than bash: what it runs is not vouched for.
    [["zsh", "-e", "-c", "git status && git status"], "ask"],
    [["bash", "-lc", "git status; rm -rf ~"], "ask"],
    [["bash", "-lc", 'git status "unterminated'], "ask"],
    [["bash", "-o", "pipefail", "-c", "git status"], "ask"],
    [["bash", "-lc", "git status", "arg0"], "ask"],
    [["bash", "-x", "git status"], "ask"],
    [["sudo", "bash", "-c", "git status"], "ask"],
  ])("an argv that runs a shell on a script is read as the script for allow: %j is %s", (argv, expected) => {
    expect(onCommand(gitStatus, argv)).toBe(expected);
  });

  it("deny rules see an argv's shell and its script", () => {
    expect(onCommand({ deny: ["bash:command=bash -lc*"] }, ["bash", "-lc", "git status"])).toBe("block");
    expect(onCommand({ deny: ["bash:command=rm*"] }, ["bash", "-lc", "git status; rm -rf ~"])).toBe("block");
  });

  it.each([
    ["shell", "bash", "ask"],
    ["shell", "terminal", "ask"],
    [null, "bash", "ask"],
    [null, "Bash", "ask"],
    [null, "run_shell_command", "ask"],
    [null, "terminal", "ask"],
    ["function", "bash", "ask"],
    ["mcp", "bash", "ask"],
    ["function", "notes", "allow"],
  ])("kind %j, tool %j: git status; rm -rf ~ is %j", (kind, tool, expected) => {
    const rules = { ask: [tool], allow: [`${tool}:command=git status*`] };
    expect(decide(rules, { command: "git status; rm -rf ~" }, tool, kind)).toBe(expected);
  });

  it("a non-shell tool keeps whole-value matching", () => {
    const rules = { ask: ["run_sql"], allow: ["run_sql:query=select *"], deny: ["run_sql:query=drop*"] };
    expect(decide(rules, { query: "select 1; drop table users" }, "run_sql", "function")).toBe("allow");
    expect(decide(rules, { query: "select 1\ndrop table users" }, "run_sql", "function")).toBe("ask");
    expect(decide(rules, { query: "drop table users" }, "run_sql", "function")).toBe("block");
  });
});

describe("arrays: element by element", () => {
  const write = (config: PermissionsConfig, paths: unknown) => decide(config, { paths }, "write", "function");

  it.each([
    [["a", "/etc/x"], "block"],
    [["/etc/x"], "block"],
    [["a", "b"], "none"],
    [[], "none"],
  ])("deny write:paths=/etc/* on %j: %s", (paths, expected) => {
    expect(write({ deny: ["write:paths=/etc/*"] }, paths)).toBe(expected);
  });

  it.each([
    [["/tmp/a", "/tmp/b"], "allow"],
    [["/tmp/a"], "allow"],
    [["/tmp/a", "/etc/x"], "ask"],
    [["/tmp/../etc/x"], "ask"],
    [[], "ask"],
    [[1, "/tmp/a"], "ask"],
  ])("allow write:paths=/tmp/* on %j: %s", (paths, expected) => {
    expect(write({ ask: ["write"], allow: ["write:paths=/tmp/*"] }, paths)).toBe(expected);
  });

  it("non-string elements are matched as JSON, and the whole array still is", () => {
    expect(decide({ deny: ["bash:flags=*force*"] }, { flags: ["--force"] }, "bash", "function")).toBe("block");
    expect(decide({ deny: ["t:ids=4?"] }, { ids: [1, 42] }, "t", "function")).toBe("block");
    expect(decide({ deny: ["t:list=*a*b*"] }, { list: ["a", "b"] }, "t", "function")).toBe("block");
    expect(decide({ ask: ["t"], allow: ["t:ids=?"] }, { ids: [1, 2] }, "t", "function")).toBe("allow");
    expect(decide({ ask: ["t"], allow: ["t:ids=?"] }, { ids: [1, 22] }, "t", "function")).toBe("ask");
  });
});

describe("paths: matched normalised", () => {
  const writeFile = (config: PermissionsConfig, path: string, key = "path") => decide(config, { [key]: path }, "write_file", "function");
  const denyEtc = { deny: ["write_file:path=/etc/*"] };

  it.each([
    "/etc/passwd",
    "/tmp/../etc/passwd",
    "//etc/passwd",
    "/etc/./passwd",
    "/etc//passwd",
    "/./etc/passwd",
    "/a/b/../../etc/passwd",
    "/../etc/passwd",
    "~/../../etc/passwd",
    "../../etc/passwd",
    "./../../../etc/passwd",
  ])("deny /etc/* blocks %j", (path) => {
    expect(writeFile(denyEtc, path)).toBe("block");
  });

  it.each(["/tmp/x", "/work/project/etc/passwd", "etc/passwd", "/etcetera"])("deny /etc/* leaves %j alone", (path) => {
    expect(writeFile(denyEtc, path)).toBe("none");
  });

  it.each([
    ["/tmp/a", "allow"],
    ["/tmp/a/./b", "allow"],
    ["//tmp/a", "allow"],
    ["/tmp/../etc/passwd", "ask"],
    ["/tmp/a/../../etc/passwd", "ask"],
    ["../../tmp/a", "allow"],
    ["/tmp", "allow"],
    ["/tmpfoo/a", "ask"],
  ])("allow /tmp/** on %j: %s", (path, expected) => {
    expect(writeFile({ ask: ["write_file"], allow: ["write_file:path=/tmp/**"] }, path)).toBe(expected);
  });

  it.each([
    ["src/a.ts", "allow"],
    ["./src/a.ts", "allow"],
    ["/work/project/src/a.ts", "allow"],
    ["/work/project/./src/deep/a.ts", "allow"],
    ["src/../../other/src/a.ts", "ask"],
    ["/work/project/src/../../etc/passwd", "ask"],
    ["/elsewhere/src/a.ts", "ask"],
  ])("a relative glob is matched inside the working folder: src/** on %j: %s", (path, expected) => {
    expect(writeFile({ ask: ["write_file"], allow: ["write_file:file_path=src/**"] }, path, "file_path")).toBe(expected);
  });

  it.each([
    ["file_path", "/home/me/.ssh/id_rsa"],
    ["filePath", "~/.ssh/id_rsa"],
    ["path", "/home/me/x/../.ssh/id_rsa"],
    ["target", "/home/me//.ssh/config"],
  ])("deny ~/.ssh/** on %s=%j", (key, path) => {
    expect(writeFile({ deny: [`write_file:${key}=~/.ssh/**`] }, path, key)).toBe("block");
  });

  it("a value glob that starts with / makes any key a path; other keys and globs are matched as written", () => {
    expect(writeFile({ deny: ["write_file:destination=/etc/*"] }, "/tmp/../etc/x", "destination")).toBe("block");
    expect(writeFile({ deny: ["write_file:url=http://a/etc/*"] }, "http://a/tmp/../etc/x", "url")).toBe("none");
  });

  it("*:path=*.env still catches a dotfile anywhere", () => {
    expect(writeFile({ deny: ["*:path=*.env"] }, "/work/project/app/.env")).toBe("block");
    expect(writeFile({ deny: ["*:path=*.env"] }, "/srv/.env")).toBe("block");
    expect(writeFile({ deny: ["*:path=*.env"] }, "app/../.env")).toBe("block");
  });
});

describe("allow rules together: every command allowed by some allow rule", () => {
  const twoRules = { ask: ["bash"], allow: ["bash:command=git status*", "bash:command=npm test*"] };

  it.each([
    ["git status && npm test", "allow"],
    ["git status; npm test; git status -s", "allow"],
    ["npm test | git status", "allow"],
    ["git status && npm test && rm -rf ~", "ask"],
    ["git status && npm test $(rm -rf ~)", "ask"],
    ['git status && npm test "unterminated', "ask"],
    ["git status && sudo npm test", "ask"],
  ])("%j is %s", (command, expected) => {
    expect(onCommand(twoRules, command)).toBe(expected);
  });

  it("names the rules that allowed it, the first as the source", () => {
    const match = new PermissionRules(twoRules, where).check("bash", { command: "npm test && git status" }, "shell");
    expect(match?.source).toEqual({ kind: "rule", name: "bash:command=npm test*" });
    expect(match?.decision).toEqual({
      action: "allow",
      reason: 'every command is allowed by permission rules "bash:command=npm test*", "bash:command=git status*"',
    });
  });

  it("a deny still wins, and a rule whose other conditions fail takes no part", () => {
    expect(onCommand({ ...twoRules, deny: ["bash:command=npm test*"] }, "git status && npm test")).toBe("block");
    const withCwd = { ask: ["bash"], allow: ["bash:command=git status*", "bash:command=npm test*:cwd=/safe/*"] };
    expect(decide(withCwd, { command: "git status && npm test", cwd: "/other/x" })).toBe("ask");
    expect(decide(withCwd, { command: "git status && npm test", cwd: "/safe/x" })).toBe("allow");
  });
});
