import { describe, expect, it } from "vitest";
import { analyze } from "./invocations.js";
import { isUnknown } from "./unknown.js";

const environment = { cwd: "/project", home: "/home/ada", tmp: "/tmp" };

const read = (source: string) => analyze(source, environment);
/** Every command the line runs, as `name args…`, nested ones included. */
const commands = (source: string) => read(source).invocations.map((invocation) => [invocation.name, ...invocation.args].join(" "));
/** Whether the line is refused as unknown: a problem, or a command whose name is only known at run time. */
const unknown = (source: string) => {
  const analysis = read(source);
  return analysis.problems.length > 0 || analysis.unresolved.length > 0;
};
/** Either the command is among those checked, or the line is refused as unknown: never passed unread. */
const caught = (source: string, command: string) =>
  commands(source).includes(command) ||
  unknown(source) ||
  commands(source).some((text) => text.includes("$") || (isUnknown(text) && text.split(" ")[0] === command.split(" ")[0]));

describe("trap bodies are read like any command", () => {
  it.each([
    ["trap 'rm -rf ~' EXIT", "rm -rf ~"],
    ['trap "rm -rf ~" INT TERM', "rm -rf ~"],
    ["trap -- 'rm -rf ~' ERR DEBUG RETURN", "rm -rf ~"],
    ["trap 'cd ~; rm -rf *' EXIT", "rm -rf *"],
    ["d=~; trap 'rm -rf $d' EXIT; d=/tmp/x", "rm -rf ~"],
    ["d=/tmp/x; trap 'rm -rf $d' EXIT; d=~; d=/tmp/y", "rm -rf ~"],
    ["trap 'eval \"rm -rf ~\"' EXIT", "rm -rf ~"],
    ["trap 'bash -c \"rm -rf ~\"' EXIT", "rm -rf ~"],
    ["bash -c \"trap 'rm -rf ~' EXIT\"", "rm -rf ~"],
    ["f() { trap 'rm -rf ~' RETURN; }; f", "rm -rf ~"],
    ["if c; then trap 'rm -rf ~' EXIT; fi", "rm -rf ~"],
    ["( trap 'rm -rf ~' EXIT; ls )", "rm -rf ~"],
    ["x='rm -rf ~'; trap \"$x\" EXIT", "rm -rf ~"],
    ["trap $'rm -rf ~' EXIT", "rm -rf ~"],
  ])("%s → runs %s", (source, command) => {
    expect(commands(source)).toContain(command);
  });

  it.each([
    ["trap 'rm -rf $d' EXIT; d=~", "rm -rf ~"],
    ["x='$(rm -rf ~)'; PS4=$x bash -xc ls", "rm -rf ~"],
    ["x='rm -rf ~'; PROMPT_COMMAND=$x bash -i", "rm -rf ~"],
    ["PROMPT_COMMAND='rm -rf $d'; d=~", "rm -rf ~"],
  ])("%s → runs %s, or is unknown", (source, command) => {
    expect(caught(source, command)).toBe(true);
  });

  it.each(['trap "$(cat handler)" INT', 'trap "$HANDLER" EXIT', "trap `cat f` EXIT", 'read h; trap "$h" EXIT'])("%s → unknown", (source) => {
    expect(unknown(source)).toBe(true);
  });

  it.each([
    ["trap - EXIT", []],
    ["trap -p", []],
    ["trap -l", []],
    ["trap '' INT", []],
    ["trap INT", []],
  ])("%s runs nothing more", (source, more) => {
    expect(commands(source).filter((command) => !command.startsWith("trap"))).toEqual(more);
  });

  it("mktemp makes its folder in TMPDIR, as the line set it", () => {
    expect(commands("TMPDIR=/var/t; T=$(mktemp -d); rm -rf $T")).toContain("rm -rf /var/t/tmp.XXXXXXXXXX");
  });

  it("the idiom that cleans a temp folder on exit deletes only that folder", () => {
    const deletes = commands(`TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT; make`).filter((command) => command.startsWith("rm"));
    expect(new Set(deletes)).toEqual(new Set(["rm -rf /tmp/tmp.XXXXXXXXXX"]));
    expect(read(`TMP=$(mktemp -d); trap 'rm -rf "$TMP"' EXIT; make`).problems).toEqual([]);
  });
});

describe("variables whose value bash runs as code", () => {
  // Every form that sets one: plain, before a command, export/declare/local/readonly/typeset, env, read, sudo.
  it.each([
    ["PS4='$(rm -rf ~)' bash -x -c true", "rm -rf ~"],
    ["PS4='`rm -rf ~`'; set -x; ls", "rm -rf ~"],
    ["export PS4='+$(rm -rf ~) '; set -x; ls", "rm -rf ~"],
    ["declare PS4='$(rm -rf ~)'", "rm -rf ~"],
    ["f() { local PS4='$(rm -rf ~)'; set -x; ls; }; f", "rm -rf ~"],
    ["readonly PS1='$(rm -rf ~)'", "rm -rf ~"],
    ["typeset -x PS2='$(rm -rf ~)'", "rm -rf ~"],
    ["PS0='$(rm -rf ~)' bash -i", "rm -rf ~"],
    ["PS3='$(rm -rf ~)'; select x in a; do :; done", "rm -rf ~"],
    ["env PS4='$(rm -rf ~)' bash -xc ls", "rm -rf ~"],
    ["sudo PS4='$(rm -rf ~)' bash -xc ls", "rm -rf ~"],
    ["read -r PS4 <<< '$(rm -rf ~)'", "rm -rf ~"],
    ["PROMPT_COMMAND='rm -rf ~' bash -i", "rm -rf ~"],
    ["export PROMPT_COMMAND='rm -rf ~'", "rm -rf ~"],
    ["PROMPT_COMMAND[0]='rm -rf ~'", "rm -rf ~"],
    ["PROMPT_COMMAND+='; rm -rf ~'", "rm -rf ~"],
    ["GIT_SSH_COMMAND='rm -rf ~' git fetch", "rm -rf ~"],
    ["GIT_PAGER='rm -rf ~' git log", "rm -rf ~"],
    ["export GIT_EDITOR='rm -rf ~'; git commit", "rm -rf ~"],
    ["GIT_SEQUENCE_EDITOR='rm -rf ~' git rebase -i HEAD~2", "rm -rf ~"],
    ["GIT_EXTERNAL_DIFF='rm -rf ~' git diff", "rm -rf ~"],
    ["GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=core.pager GIT_CONFIG_VALUE_0='rm -rf ~' git log", "rm -rf ~"],
    ["PAGER='rm -rf ~' man ls", "rm -rf ~"],
    ["EDITOR='rm -rf ~' crontab -e", "rm -rf ~"],
    ["VISUAL='rm -rf ~' git commit", "rm -rf ~"],
    ["MANPAGER='sh -c \"rm -rf ~\"' man ls", "rm -rf ~"],
    ["LESSOPEN='|rm -rf ~ %s' less f", "rm -rf ~ %s"],
    ["SYSTEMD_PAGER='rm -rf ~' systemctl status", "rm -rf ~"],
    ["SSH_ASKPASS='rm -rf ~' ssh host", "rm -rf ~"],
    ["echo 'rm -rf ~' > /tmp/e.sh; BASH_ENV=/tmp/e.sh bash -c true", "rm -rf ~"],
    ["export PATH=/tmp/b:$PATH; echo 'rm -rf ~' > /tmp/b/ls; ls", "rm -rf ~"],
    ["PROMPT_COMMAND=('rm -rf ~')", "rm -rf ~"],
    ["declare -a PROMPT_COMMAND=(ls 'rm -rf ~')", "rm -rf ~"],
  ])("%s → runs %s", (source, command) => {
    expect(commands(source)).toContain(command);
  });

  it.each([
    "PS4=$(cat f) bash -xc ls",
    'PS4="$(curl -s x)"; set -x',
    "read PS4; set -x; ls",
    "printf -v PS4 '%s' '$(rm -rf ~)'",
    "mapfile -t PROMPT_COMMAND < cmds",
    "PROMPT_COMMAND=$(cat f)",
    'export PROMPT_COMMAND="$(cat f)"',
    "BASH_ENV=/tmp/x.sh bash -c true",
    "BASH_ENV=<(echo rm -rf ~) bash -c true",
    "ENV=~/.evil sh -c true",
    "export BASH_ENV=./env.sh; bash build.sh",
    "env 'BASH_FUNC_ls%%=() { rm -rf ~; }' bash -c ls",
    "LD_PRELOAD=/tmp/x.so ls",
    "export LD_PRELOAD=./hook.so",
    "DYLD_INSERT_LIBRARIES=/tmp/x.dylib ls",
    "GIT_EXEC_PATH=/tmp git status",
    "GIT_TEMPLATE_DIR=/tmp/t git init",
    "GIT_CONFIG_GLOBAL=/tmp/cfg git log",
    "GIT_CONFIG_PARAMETERS=\"'core.pager'='rm -rf ~'\" git log",
    "NODE_OPTIONS='--require /tmp/x.js' node app.js",
    "NODE_OPTIONS=-r./hook.js npm test",
    "PERL5OPT=-MEvil perl x.pl",
    "RUBYOPT=-revil ruby x.rb",
    "SHELLOPTS=$(cat f) bash x",
    "PATH=$x:$PATH ls",
    "PATH=.:$PATH ls",
    "PATH=:$PATH ls",
    "export PATH=bin:$PATH",
    "mkdir -p /tmp/b; echo 'rm -rf ~' > /tmp/b/ls; PATH=/tmp/b:$PATH ls",
    "LD_LIBRARY_PATH=$(pwd)/lib:$x ./app",
    "declare -n r=PS4; r='$(rm -rf ~)'",
    "local -n p=PROMPT_COMMAND",
    "read -r PAGER; git log",
    "printf -v 'PS4[0]' '%s' x",
    "read -a PROMPT_COMMAND",
    "PROMPT_COMMAND=($(cat f))",
    "BASH_LOADABLES_PATH=$x enable -f evil x",
  ])("%s → unknown", (source) => {
    expect(unknown(source)).toBe(true);
  });

  it.each([
    "EDITOR=vim git commit",
    "PAGER=cat git log",
    "GIT_PAGER= git log",
    "export EDITOR=nano",
    'export PATH="$PWD/node_modules/.bin:$PATH"; npm test',
    'export PATH="$HOME/.local/bin:$PATH"',
    "PATH=/usr/local/bin:/usr/bin:/bin make",
    "GIT_CONFIG_GLOBAL=/dev/null git log",
    "NODE_OPTIONS=--max-old-space-size=4096 npm test",
    "BASH_ENV= bash -c true",
    "PS1='\\u@\\h:\\w\\$ '",
    "PS4='+ ${BASH_SOURCE}:${LINENO}: '; set -x; make",
    "LD_LIBRARY_PATH=/usr/local/lib ./app",
    "SHELLOPTS=xtrace bash build.sh",
  ])("%s → read with confidence", (source) => {
    expect(read(source).problems).toEqual([]);
  });
});

describe("let reads its operands as arithmetic, and their subscripts as code", () => {
  it.each([
    ["let 'a[$(rm -rf ~)]'", "rm -rf ~"],
    ["let 'b = a[`rm -rf ~`]'", "rm -rf ~"],
    ["declare -i n; n='a[$(rm -rf ~)]'", "rm -rf ~"],
    ["typeset -i n='a[$(rm -rf ~)]'", "rm -rf ~"],
    ["[[ 'a[$(rm -rf ~)]' -eq 1 ]]", "rm -rf ~"],
  ])("%s → runs %s", (source, command) => {
    expect(commands(source)).toContain(command);
  });

  it.each([
    ["x='a[$(rm -rf ~)]'; let x", "rm -rf ~"],
    ["x='a[$(rm -rf ~)]'; let 'y = x + 1'", "rm -rf ~"],
    ["y='a[$(rm -rf ~)]'; x=y; let x++", "rm -rf ~"],
  ])("%s → runs %s, or is unknown", (source, command) => {
    expect(caught(source, command)).toBe(true);
  });

  it.each(["read x; let x", "x=$(cat f); let 'x + 1'", "read x; [[ $x -gt 1 ]]", "read x; [[ x -eq 1 ]]"])("%s → unknown", (source) => {
    expect(unknown(source)).toBe(true);
  });

  // An operand that is not a known number is unknown (see fail-closed.test.ts), `$#` and `declare -i` included.
  it.each(["let i++", "[[ $# -gt 0 ]]", "declare -i n=5"])("%s → unknown", (source) => {
    expect(unknown(source)).toBe(true);
  });

  it.each(["i=0; let i++", "let 'n = 2 * 3'", "n=3; [[ $n -ge 2 ]] && echo ok"])("%s → read with confidence", (source) => {
    expect(read(source).problems).toEqual([]);
  });
});
