import { describe, expect, it } from "vitest";
import { analyze } from "./invocations.js";

const environment = { cwd: "/project", home: "/home/ada", tmp: "/tmp" };

const read = (source: string) => analyze(source, environment);
const commands = (source: string) => read(source).invocations.map((invocation) => [invocation.name, ...invocation.args].join(" "));

describe("aliases are expanded wherever bash could expand them", () => {
  it.each([
    ["alias x='rm -rf ~'\nx", "rm -rf ~"],
    ["alias x='rm -rf ~'; x", "rm -rf ~"],
    ["shopt -s expand_aliases; alias x='rm -rf'; x ~", "rm -rf ~"],
    ["alias x='rm -rf'\nf() { x ~; }\nf", "rm -rf ~"],
    ["alias ls='rm -rf ~'; ls -la", "rm -rf ~ -la"],
    ["alias x='rm -rf ~' && x", "rm -rf ~"],
    ["alias a=b b='rm -rf ~'; a", "rm -rf ~"],
    ["if c; then alias x='rm -rf ~'; fi; x", "rm -rf ~"],
    ["c && alias x='rm -rf ~'; x", "rm -rf ~"],
    ["alias x='rm -rf /tmp/a'; if c; then alias x='rm -rf ~'; fi; x", "rm -rf ~"],
    ["alias x='rm -rf /tmp/a'; if c; then alias x='rm -rf ~'; fi; x", "rm -rf /tmp/a"],
    ["alias x='cd ~ && rm -rf'; x *", "rm -rf *"],
    ["alias x='echo ok; rm -rf'; x ~", "rm -rf ~"],
    ['alias x="rm -rf ~"; for i in 1; do x; done', "rm -rf ~"],
    ["alias x='rm -rf ~'; then_=1; if c; then x; fi", "rm -rf ~"],
    ["bash -c \"alias x='rm -rf ~'\nx\"", "rm -rf ~"],
    ["eval \"alias x='rm -rf ~'\"; x", "rm -rf ~"],
    ["y='rm -rf ~'; alias x=\"$y\"; x", "rm -rf ~"],
    ["alias x='sudo '; alias y='rm -rf ~'; x y", "rm -rf ~"],
  ])("%s → runs %s", (source, command) => {
    expect(commands(source)).toContain(command);
  });

  it("an alias that changes folder changes it for what follows", () => {
    const rm = read("alias a='cd ~'; a; rm -rf *").invocations.find((invocation) => invocation.name === "rm");
    expect(rm?.cwd).toBe("/home/ada");
  });

  it.each([
    'alias x="$(cat f)"; x',
    'alias x="$CMD"; x',
    'read v; alias x="$v"; x',
    "alias then='rm -rf ~;'; if c; then x; fi",
    "alias do='rm -rf ~;'; for i in 1; do x; done",
  ])("%s → unknown", (source) => {
    const analysis = read(source);
    expect(analysis.problems.length + analysis.unresolved.length).toBeGreaterThan(0);
  });

  it.each([
    ["alias x='rm -rf ~'; unalias x; x", "rm -rf ~"],
    ["alias x='rm -rf ~'; unalias -a; x", "rm -rf ~"],
    ["(alias x='rm -rf ~'); x", "rm -rf ~"],
    ["alias x='rm -rf ~' | cat; x", "rm -rf ~"],
  ])("%s → does not run %s", (source, command) => {
    expect(commands(source)).not.toContain(command);
  });

  it.each([
    ["alias ls='ls -la'; ls", ["alias ls=ls -la", "ls -la"]],
    ["alias a=b b=a; a", ["alias a=b b=a", "a"]],
    ["alias ll='ls -l'; ll src", ["alias ll=ls -l", "ls -l src"]],
  ])("%s → %j (an alias is not expanded inside itself)", (source, expected) => {
    expect(commands(source)).toEqual(expected);
  });
});

describe("a shell that is not bash is not read as bash", () => {
  it.each([
    ["zsh -c 'ls'", "zsh"],
    ["fish -c 'ls'", "fish"],
    ["csh -c 'ls'", "csh"],
    ["tcsh -c 'ls'", "tcsh"],
    ["ksh -c 'ls'", "ksh"],
    ["mksh -c 'ls'", "mksh"],
    ["yash -c 'ls'", "yash"],
    ["pwsh -Command 'Remove-Item -Recurse -Force ~'", "pwsh"],
    ["pwsh -c 'ls'", "pwsh"],
    ["powershell.exe -c 'ls'", "powershell"],
    ["nu -c 'rm -r ~'", "nu"],
    ["xonsh -c 'ls'", "xonsh"],
    ["elvish -c 'ls'", "elvish"],
    ["echo ls | zsh", "zsh"],
    ["zsh < script.zsh", "zsh"],
    ["zsh script.zsh", "zsh"],
    ["zsh -s < x", "zsh"],
    ["sudo zsh -c ls", "zsh"],
    ["env FOO=1 zsh -c ls", "zsh"],
    ["/bin/zsh -c ls", "zsh"],
    ["/usr/local/bin/fish -c ls", "fish"],
    ["exec zsh -c ls", "zsh"],
    ["bash -c 'zsh -c ls'", "zsh"],
    ["cat <<'EOF' | tcsh\nls\nEOF", "tcsh"],
  ])("%s → a problem naming %s", (source, shell) => {
    expect(read(source).problems.join(" ")).toContain(`${shell} reads its own language`);
  });

  it.each(["bash -c 'ls'", "sh -c 'ls'", "dash -c 'ls'", "ash -c 'ls'", "busybox sh -c 'ls'", "rbash -c ls", "zsh --version", "fish --help"])(
    "%s → read as bash, with confidence",
    (source) => {
      expect(read(source).problems).toEqual([]);
    },
  );
});
