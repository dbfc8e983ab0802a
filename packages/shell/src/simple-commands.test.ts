import { describe, expect, it } from "vitest";
import { simpleCommands } from "./simple-commands.js";

describe("simpleCommands", () => {
  it.each([
    ["git status", ["git status"]],
    ["  \tgit push", ["git push"]],
    ["git status; rm -rf ~", ["git status", "rm -rf ~"]],
    ["git status;rm -rf ~", ["git status", "rm -rf ~"]],
    ["a && b", ["a", "b"]],
    ["a&&b", ["a", "b"]],
    ["a || b", ["a", "b"]],
    ["a | b", ["a", "b"]],
    ["a |& b", ["a", "b"]],
    ["a & b", ["a", "b"]],
    ["a\nb", ["a", "b"]],
    ["a\n\n  b\n", ["a", "b"]],
    ["(a; b)", ["a", "b"]],
    ["{ a; b; }", ["a", "b"]],
    ["a $(b c)", ["a $(b c)", "b c"]],
    ["a `b c`", ["a `b c`", "b c"]],
    ["diff <(b) >(c)", ["diff <(b) >(c)", "b", "c"]],
    ['echo "$(rm x)"', ["echo $(rm x)", "rm x"]],
    ["a $(b $(c))", ["a $(b $(c))", "b $(c)", "c"]],
    ["f() { rm x; }", ["rm x"]],
    ["ls > $(rm x)", ["ls > $(rm x)", "rm x"]],
    ["git status > out.txt", ["git status > out.txt"]],
    ["> /etc/passwd", ["> /etc/passwd"]],
    ["cat <<EOF\n$(rm x)\nEOF", ["cat << EOF", "rm x"]],
    ["cat <<'EOF'\n$(rm x)\nEOF", ["cat << EOF"]],
    ["cat <<EOF\nrm is only text\nEOF", ["cat << EOF"]],
  ])("%j is %j", (source, commands) => {
    expect(simpleCommands(source)).toEqual({ commands });
  });

  it.each([
    ['git commit -m "a; rm x"', "git commit -m a; rm x"],
    ["git commit -m 'a && b | c'", "git commit -m a && b | c"],
    ['echo "a\nb"', "echo a\nb"],
    ["echo a\\;b", "echo a;b"],
  ])("quoted operators are not separators: %j is one command", (source, command) => {
    expect(simpleCommands(source)).toEqual({ commands: [command] });
  });

  it.each(['echo "unterminated', "echo $(rm", "(ls", "{ ls", "echo `ls"])("%j has a problem", (source) => {
    expect(simpleCommands(source).problem).toEqual(expect.any(String));
  });

  it("reports scripts nested deeper than it reads", () => {
    const deep = `${"$(".repeat(12)}rm x${")".repeat(12)}`;
    expect(simpleCommands(`echo ${deep}`).problem).toMatch(/nested more than/);
  });
});

describe("simpleCommands: substitutions inside ${…}", () => {
  it.each([
    ["git status ${X:-$(rm x)}", ["git status ${X:-$(rm x)}", "rm x"]],
    ['git status "${X:-`rm x`}"', ["git status ${X:-`rm x`}", "rm x"]],
    ["echo ${X:=$(a $(b))}", ["echo ${X:=$(a $(b))}", "a $(b)", "b"]],
  ])("%j is read as %j: the lexer reads the substitutions inside ${…} as words", (source, commands) => {
    expect(simpleCommands(source)).toEqual({ commands });
  });

  it("a parameter expansion with no substitution is no problem", () => {
    expect(simpleCommands('echo "${HOME:-/root}" $((1 + 2))')).toEqual({ commands: ["echo ${HOME:-/root} $((1 + 2))"] });
  });
});
