import { describe, expect, it } from "vitest";
import { checkCommand } from "./check.js";
import { resolveOptions } from "./options.js";

// A fixed machine: the project is /home/dev/project, the user's home /home/dev.
const environment = { projectRoot: "/home/dev/project", home: "/home/dev" };
const guard = resolveOptions({}, environment).guard;
const refused = (command: string) => checkCommand(command, guard).violation !== undefined;

// Each line runs `rm -rf ~` (or worse) in bash on some path bash may take: every one is refused.
const catastrophic: Record<string, readonly string[]> = {
  "code kept in data": [
    "trap 'rm -rf ~' EXIT",
    "trap -- 'rm -rf ~' ERR DEBUG RETURN",
    "trap 'rm -rf $d' EXIT; d=~",
    'trap "$(cat handler)" INT',
    "PS4='$(rm -rf ~)' bash -x -c true",
    "export PS4='`rm -rf ~`'; set -x; ls",
    "env PS4='$(rm -rf ~)' bash -xc ls",
    "read -r PS4 <<< '$(rm -rf ~)'; set -x; ls",
    "printf -v PS4 '%s' '$(rm -rf ~)'; set -x; ls",
    "PROMPT_COMMAND='rm -rf ~' bash -i",
    "PROMPT_COMMAND[0]='rm -rf ~'",
    "BASH_ENV=<(echo rm -rf ~) bash -c true",
    "echo 'rm -rf ~' > /tmp/e.sh; BASH_ENV=/tmp/e.sh bash -c true",
    "ENV=/tmp/x sh -c true",
    "env 'BASH_FUNC_ls%%=() { rm -rf ~; }' bash -c ls",
    "LD_PRELOAD=/tmp/x.so ls",
    "GIT_PAGER='rm -rf ~' git log",
    "GIT_EXTERNAL_DIFF='rm -rf ~' git diff",
    "GIT_EXEC_PATH=/tmp git status",
    "PAGER='rm -rf ~' man ls",
    "EDITOR='rm -rf ~' git commit",
    "LESSOPEN='|rm -rf ~ %s' less f",
    "export PATH=/tmp/b:$PATH; echo 'rm -rf ~' > /tmp/b/ls; chmod +x /tmp/b/ls; ls",
    "PATH=.:$PATH make",
    "let 'a[$(rm -rf ~)]'",
    "declare -n r=PS4; r='$(rm -rf ~)'; set -x; ls",
  ],
  "control flow": [
    "if c; then d=/tmp/x; else d=~; fi; rm -rf $d",
    "d=~; true && d=/tmp/x; rm -rf $d",
    "d=/tmp/x; true || d=~; rm -rf $d",
    "d=~; if c; then d=/tmp/x; fi; rm -rf $d",
    "d=/tmp/y; case $1 in a) d=/tmp/x;; b) d=~;; esac; rm -rf $d",
    "for d in /tmp/x ~; do rm -rf $d; done",
    "x=/tmp/a; for i in 1 2; do rm -rf $x; x=~; done",
    'x=/tmp/a; while read l; do rm -rf "$x"; x=~; done < list',
    "d=/tmp/y; for i in 1; do d=~; break; d=/tmp/x; done; rm -rf $d",
    "f() { rm -rf /tmp/x; }; if c; then f() { rm -rf ~; }; fi; f",
    "f() { d=~; [ c ] && return; d=/tmp/x; }; f; rm -rf $d",
    "f() { rm -rf $d; d=~; f; }; d=/tmp/x; f",
    "cd /tmp/x || cd ~; rm -rf *",
    "if c; then cd ~; fi; rm -rf *",
    "eval 'cd ~'; rm -rf *",
    "if c; then rm -rf /tmp/x",
  ],
  "shells that are not bash": [
    "zsh -c 'rm -rf ~'",
    "fish -c 'rm -rf ~'",
    "zsh -c 'rm -rf ${~HOME}'",
    "echo 'rm -rf ~' | tcsh",
    "csh -c 'ls'",
    "pwsh -Command 'Remove-Item -Recurse -Force ~'",
    "nu -c 'rm -r ~'",
    "sudo ksh -c ls",
  ],
  aliases: [
    "alias x='rm -rf ~'\nx",
    "alias x='rm -rf ~'; x",
    "shopt -s expand_aliases\nalias x='rm -rf'\nx ~",
    "alias x='rm -rf'; f() { x ~; }; f",
    "if c; then alias x='rm -rf ~'; fi; x",
    "alias a='cd ~'; a; rm -rf *",
    'alias x="$(cat f)"; x',
    "alias x='sudo '; alias y='rm -rf ~'; x y",
  ],
};

// Everyday lines: still allowed.
const benign = [
  "TMP=$(mktemp -d); trap 'rm -rf \"$TMP\"' EXIT; make",
  "if [ -d build ]; then rm -rf build; fi",
  'for f in *.log; do rm "$f"; done',
  "cd build && rm -rf *",
  "mkdir -p build && cd build && rm -rf *",
  "cd build || exit 1; rm -rf *",
  'export PATH="$PWD/node_modules/.bin:$PATH"; npm test',
  'export PATH="$HOME/.local/bin:$PATH"; which tool',
  "EDITOR=vim git commit",
  "GIT_PAGER=cat git log -5",
  "NODE_OPTIONS=--max-old-space-size=4096 npm run build",
  "alias ll='ls -l'; ll",
  'for d in dist build; do rm -rf "$d"; done',
  "if [ -f package.json ]; then npm ci; else echo none; fi",
  'case "$1" in test) npm test;; build) npm run build;; esac',
  'while read -r f; do echo "$f"; done < files.txt',
  "sh -c 'npm test'",
  "bash -c 'make && make test'",
  "PS4='+ ${BASH_SOURCE}:${LINENO}: ' bash -x build.sh",
  "set -e; trap 'echo failed' ERR; make",
];

describe("structural holes: what bash may run through them is refused", () => {
  for (const [hole, lines] of Object.entries(catastrophic)) {
    it.each(lines)(`${hole}: %s → refused`, (command) => {
      expect(refused(command)).toBe(true);
    });
  }
});

describe("structural holes: everyday lines stay allowed", () => {
  it.each(benign)("%s → allowed", (command) => {
    expect(checkCommand(command, guard).violation).toBeUndefined();
  });
});
