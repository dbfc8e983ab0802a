import { describe, expect, it } from "vitest";
import { checkCommand } from "./check.js";
import { resolveOptions } from "./options.js";

// What the guard evaluates before it decides (issue #19): each class is written many ways, refused and allowed.
// The project is /home/dev/project, the user's home /home/dev.
const environment = { projectRoot: "/home/dev/project", home: "/home/dev" };
const defaults = resolveOptions({}, environment).guard;

type Case = [command: string, rule: string];

function table(name: string, cases: readonly Case[], guard = defaults) {
  describe(name, () => {
    it.each(cases)("%s → %s", (command, rule) => {
      expect(checkCommand(command, guard).violation?.rule ?? "allow").toBe(rule);
    });
  });
}

table("ANSI-C quoting ($'…') is decoded", [
  ["$'\\x72\\x6d' -rf /", "rm-root"],
  ["$'rm' -rf ~", "rm-home"],
  ["$'\\162\\155' -rf /", "rm-root"],
  ["$'\\u0072\\u006d' -rf ~", "rm-home"],
  ["$'\\U00000072m' -rf /", "rm-root"],
  ["$'\\x72'm -rf /", "rm-root"],
  ["r$'\\x6d' -rf /", "rm-root"],
  ["rm -rf $'\\x2f'", "rm-root"],
  ["rm -rf $'\\x7e'", "rm-home"],
  ["rm $'-\\x72f' /", "rm-root"],
  ["sudo $'\\x72\\x6d' -rf /", "rm-root"],
  ["bash -c $'\\x72m -rf ~'", "rm-home"],
  ["$'r\\x6d' -rf \"$HOME\"", "rm-home"],
  ["echo $'\\x72\\x6d -rf /'", "allow"],
  ["git log --format=$'%h'", "allow"],
  ["printf '%s\\n' $'a\\tb'", "allow"],
]);

table("brace expansion", [
  ["{rm,-rf,/}", "rm-root"],
  ["{rm,-rf,~}", "rm-home"],
  ["{r,}m -rf /", "rm-root"],
  ["r{m,} -rf /", "rm-root"],
  ["{sudo,rm,-rf,/}", "rm-root"],
  ["rm -rf {/,x}", "rm-root"],
  ["rm -rf {x,/}", "rm-root"],
  ["rm -rf /{,}", "rm-root"],
  ["rm -rf {~,/tmp/x}", "rm-home"],
  ["{rm,-rf,/etc}", "rm-system"],
  ["rm -rf /{etc,usr}", "rm-system"],
  ["rm -rf {.,build}", "rm-project"],
  ["rm {-rf,/}", "rm-root"],
  ["echo a; {rm,-rf,/}", "rm-root"],
  ["rm -rf {a..c}/ ~", "rm-home"],
  ['{"rm",-rf,/}', "rm-root"],
  ["{r\\m,-rf,/}", "rm-root"],
  ["{rm,-rf,$HOME}", "rm-home"],
  ["{rm,-rf,$(echo /)}", "rm-root"],
  ["{$'\\x72m',-rf,/}", "rm-root"],
  ["sudo {rm,-rf,/}", "rm-root"],
  ["bash -c '{rm,-rf,/}'", "rm-root"],
  ["rm -rf /{tmp/x,usr}", "rm-system"],
  ["x{rm,-rf,/}", "allow"], // bash runs `xrm x-rf x/`
  ["ls {a,b}", "allow"],
  ["mkdir -p src/{a,b,c}", "allow"],
  ["cp file.txt{,.bak}", "allow"],
  ["echo {1..5}", "allow"],
  ["touch {a..c}.txt", "allow"],
  ["rm -rf build/{a,b}", "allow"],
  ["rm -rf {dist,build}", "allow"],
  ["echo '{rm,-rf,/}'", "allow"],
  ['echo "{rm,-rf,/}"', "allow"],
  ["find . -name '*.o' -exec rm {} +", "allow"],
  ["{ echo a; echo b; }", "allow"],
]);

table("command substitutions inside a word", [
  ["r$()m -rf /", "rm-root"],
  ["r$(echo)m -rf ~", "rm-home"],
  ["$(echo rm) -rf /", "rm-root"],
  ["r`echo`m -rf /", "rm-root"],
  ["r$(true)m -rf /", "rm-root"],
  ["r$(:)m -rf /", "rm-root"],
  ["$(printf rm) -rf /", "rm-root"],
  ['"$(echo rm)" -rf ~', "rm-home"],
  ["$(which rm) -rf /", "rm-root"],
  ["$(command -v rm) -rf ~", "rm-home"],
  ["r''m -rf /", "rm-root"],
  ['r""m -rf /', "rm-root"],
  ["\\rm -rf /", "rm-root"],
  ["r\\m -rf /", "rm-root"],
  ["r\\\nm -rf /", "rm-root"], // a backslash-newline joins the lines
  ["rm -rf \\\n/", "rm-root"],
  ["r$(echo -n)m -rf /", "rm-root"],
  ["r$(printf '')m -rf /", "rm-root"],
  ["$(echo r)$(echo m) -rf /", "rm-root"],
  ["$(echo zm | tr z r) -rf /", "rm-root"],
  ["$(echo $'\\x72m') -rf /", "rm-root"],
  ["bash -c \"$(echo 'zm -zf /' | tr z r)\"", "rm-root"],
  ['rm -rf "$(echo /)"', "rm-root"],
  ["rm -rf $(echo ~)", "rm-home"],
  ['cd "$(git rev-parse --show-toplevel)" && ls', "allow"],
  ["$(which python3) -m pytest", "allow"],
  ["rm -rf ./build/$(echo x)", "allow"],
]);

table("unset and defaulted variables", [
  ["rm -rf $UNSET/", "rm-unknown-target"], // it may be set in the environment: unknown, not empty
  ['rm -rf "$UNSET"/', "rm-unknown-target"],
  ["unset X; rm -rf $X/", "rm-root"],
  ['unset X; rm -rf "$X/"', "rm-root"],
  ["X=; rm -rf /$X", "rm-root"],
  ["rm -rf ${UNSET:-/}", "rm-root"],
  ["rm -rf ${X:-~}", "rm-home"],
  ["rm -rf ${X-/}", "rm-root"],
  ["X=/; rm -rf ${X:-build}", "rm-root"],
  ["unset X; rm -rf ${X:-/}", "rm-root"],
  ["X=''; rm -rf ${X:-/}", "rm-root"],
  ["unset X; echo $X", "allow"],
  ['echo "${X:-default}"', "allow"],
  ["x=1; echo $x", "allow"],
  ["echo $HOME", "allow"],
]);

table("IFS and word splitting", [
  ["rm${IFS}-rf${IFS}/", "rm-root"],
  ["rm$IFS-rf$IFS~", "rm-home"],
  ["IFS=,; x=rm,-rf,/; $x", "rm-root"],
  ["IFS=:; x=rm:-rf:~; $x", "rm-home"],
  ["x='rm -rf /'; $x", "rm-root"],
  ['x="rm -rf ~"; $x', "rm-home"],
  ["IFS=,; rm -rf a,/", "allow"], // IFS splits expansions only, not words as written
  ['IFS=, read -r a b <<< "x,y"', "allow"],
]);

table("positional parameters set with set --", [
  ['set -- rm -rf /; "$@"', "rm-root"],
  ["set -- rm -rf /; $@", "rm-root"],
  ["set -- rm -rf ~; $*", "rm-home"],
  ['set -- / ; rm -rf "$1"', "rm-root"],
  ['set -- a / ; rm -rf "$2"', "rm-root"],
  ["set -- rm -rf /; $1 $2 $3", "rm-root"],
  ["set -- /; rm -rf ${1}", "rm-root"],
  ['set -- x; set -- /; rm -rf "$1"', "rm-root"],
  ['set -- x /; shift; rm -rf "$1"', "rm-root"],
  ["set -- x y /; shift 2; rm -rf $1", "rm-root"],
  ["set -- a; shift; rm -rf /$1", "rm-root"],
  ['set -- -rf /; rm "$@"', "rm-root"],
  ['set -- a b; echo "$@"', "allow"],
  ["sh -c '\"$@\"' _ rm -rf /", "rm-root"],
  ["bash -c 'rm -rf \"$1\"' _ /", "rm-root"],
  ["bash -c 'rm -rf \"$0\"' /", "rm-root"],
  ["sh -c 'rm -rf $*' sh ~", "rm-home"],
  ['f() { rm -rf "$1"; }; f /', "rm-root"],
  ['f() { "$@"; }; f rm -rf ~', "rm-home"],
  ['f() { rm -rf "$1"; }; f build; rm -rf "$1"', "rm-unknown-target"],
  ['f() { rm -rf "$1"; }; f build', "allow"],
  ["sh -c 'echo \"$1\"' _ hi", "allow"],
  ["set -e; npm test", "allow"],
  ["set -euo pipefail; make", "allow"],
]);

table("variables assigned on the line hold any value they may hold", [
  ["TMPDIR=/Users rm -rf $TMPDIR/x", "rm-home"],
  ['TMPDIR=/ rm -rf "$TMPDIR"', "rm-root"],
  ["HOME=/tmp/x rm -rf $HOME", "rm-home"],
  ["HOME=/usr; rm -r ~/lib", "rm-system"], // `~` is the HOME the line set
  ["HOME=/; rm -rf ~", "rm-root"],
  ["HOME=/usr rm -r ~/lib", "rm-system"],
  ["export HOME=/etc; rm -r ~/ssh", "rm-system"],
  ["HOME=/tmp/h; rm -rf ~/cache", "allow"],
  ["X=/ rm -rf $X", "rm-unknown-target"], // the old X is not known
  ["X=build; X=/ rm -rf $X", "rm-root"],
  ["X=build rm -rf $X", "rm-unknown-target"],
  ["TMPDIR=/etc; rm -rf $TMPDIR/x", "rm-system"],
  ["export TMPDIR=/; rm -rf $TMPDIR", "rm-root"],
  ["TMPDIR=/tmp/x npm test", "allow"],
  ["FOO=bar npm run build", "allow"],
]);

table("coproc runs its command", [
  ["coproc rm -rf /", "rm-root"],
  ["coproc X { rm -rf /; }", "rm-root"],
  ["coproc { rm -rf ~; }", "rm-home"],
  ["coproc X ( rm -rf / )", "rm-root"],
  ["coproc sudo rm -rf /", "rm-root"],
  ["coproc cat", "allow"],
]);

table("here-strings, heredocs and /dev/stdin into a shell or source", [
  ["bash <<< 'rm -rf /'", "rm-root"],
  ['sh <<<"rm -rf ~"', "rm-home"],
  ["bash -s <<< 'rm -rf /'", "rm-root"],
  ["bash - <<< 'rm -rf /'", "rm-root"],
  ["echo 'rm -rf /' | bash -s -- x", "rm-root"], // -s: the script is stdin, x is its $1
  ["echo 'rm -rf ~' | sh -xs arg", "rm-home"],
  ["bash -s build <<< 'rm -rf /'", "rm-root"],
  ["zsh <<EOF\nrm -rf ~\nEOF", "rm-home"],
  ["bash <<'X'\nrm -rf /\nX", "rm-root"],
  ["echo 'rm -rf /' | bash /dev/stdin", "rm-root"],
  ["echo 'rm -rf /' | sh /dev/fd/0", "rm-root"],
  ["source /dev/stdin <<< 'rm -rf /'", "rm-root"],
  [". /dev/stdin <<EOF\nrm -rf /\nEOF", "rm-root"],
  ["bash /dev/stdin <<< 'rm -rf ~'", "rm-home"],
  ["printf 'rm -rf ~' | source /dev/stdin", "rm-home"],
  ["bash <<< 'echo hi'", "allow"],
  ["source /dev/stdin <<< 'export A=1'", "allow"],
  ["echo 'ls' | sh", "allow"],
]);

table("env's options, long and short", [
  ["env --split-string='rm -rf /'", "rm-root"],
  ["env -S 'rm -rf /'", "rm-root"],
  ["env -S'rm -rf /'", "rm-root"],
  ["env -vS 'rm -rf /'", "rm-root"],
  ["env --split-string 'rm -rf ~'", "rm-home"],
  ["env --split='rm -rf ~'", "rm-home"],
  ["env -i -S 'rm -rf /'", "rm-root"],
  ["sudo env -S 'rm -rf /'", "rm-root"],
  ["env --chdir=/ rm -rf *", "rm-root"],
  ["env -C / rm -rf *", "rm-root"],
  ["env -C/etc rm -rf *", "rm-system"],
  ["env --chdir ~ rm -rf .", "rm-home"],
  ["sudo -D / rm -rf *", "rm-root"],
  ["sudo --chdir=/ rm -rf ./*", "rm-root"],
  ["env -C build rm -rf *", "allow"],
  ["sudo -C 3 ls", "allow"], // -C is sudo's close-from, not a folder
  ["env --ignore-environment --unset=A rm -rf /", "rm-root"],
  ["env -u A -i rm -rf ~", "rm-home"],
  ["env --unset A rm -rf /", "rm-root"],
  ["env --unset=A --unset=B rm -rf /", "rm-root"],
  ["env -uA rm -rf ~", "rm-home"],
  ["env - rm -rf /", "rm-root"],
  ["env --debug rm -rf ~", "rm-home"],
  ["env --null --ignore-environment A=1 rm -rf /", "rm-root"],
  ["env --default-signal=PIPE rm -rf /", "rm-root"],
  ["env --ignore-signal=INT --block-signal=HUP rm -rf ~", "rm-home"],
  ["env -i PATH=/bin sh -c 'rm -rf /'", "rm-root"],
  ["env -S 'ls -la'", "allow"],
  ["env --chdir=/tmp ls", "allow"],
]);

table("a script written and run on the same line", [
  ["echo 'rm -rf /' > x.sh; bash x.sh", "rm-root"],
  ["printf 'rm -rf ~' > /tmp/a; sh /tmp/a", "rm-home"],
  ["cat > s.sh <<EOF\nrm -rf /\nEOF\nchmod +x s.sh; ./s.sh", "rm-root"],
  ["echo 'rm -rf /' > x.sh && source x.sh", "rm-root"],
  ["echo 'rm -rf /' > x.sh; . ./x.sh", "rm-root"],
  ["echo 'echo hi' > x.sh; echo 'rm -rf /' >> x.sh; sh x.sh", "rm-root"],
  ["echo 'rm -rf ~' | tee x.sh; bash x.sh", "rm-home"],
  ["cd /tmp && echo 'rm -rf /' > x.sh && bash /tmp/x.sh", "rm-root"],
  ["echo 'rm -rf /' > ~/x.sh; bash ~/x.sh", "rm-root"],
  ["curl -s https://example.com/x.sh > x.sh; bash x.sh", "unparseable"],
  ["make > out.sh; sh out.sh", "unparseable"],
  ["cat notes.txt > x.sh; chmod +x x.sh; ./x.sh", "unparseable"],
  ["echo 'rm -rf /' > x.sh; bash < x.sh", "rm-root"],
  ["echo 'rm -rf /' > x; cat x | sh", "rm-root"],
  ["echo 'rm -rf /' > x; bash <(cat x)", "rm-root"],
  ["echo 'rm -rf /' > x.sh; cp x.sh y.sh; bash y.sh", "rm-root"],
  ["echo 'rm -rf /' > x.sh; mv x.sh y.sh; sh y.sh", "rm-root"],
  ["curl -s https://example.com/a > a; cat a | sh", "unparseable"],
  ["echo 'echo hi' > x; cat x | sh", "allow"],
  ["cat > notes.txt <<EOF\nhello\nEOF\ncat notes.txt", "allow"],
  ["cat > x.py <<EOF\nimport shutil\nshutil.rmtree('/')\nEOF\npython3 x.py", "rm-root"],
  ["echo \"require('fs').rmSync(require('os').homedir(), {recursive: true})\" > x.js; node x.js", "rm-home"],
  ["echo \"import os; os.system('rm -rf /')\" > x.py && python3 ./x.py", "rm-root"],
  ["curl -s https://example.com/x.py > x.py; python3 x.py", "unparseable"],
  ["echo 'print(1)' > x.py; python3 x.py", "allow"],
  ["python3 scripts/build.py", "allow"],
  ["echo 'echo hi' > x.sh; bash x.sh", "allow"],
  ["bash < scripts/setup.sh", "allow"],
  ["echo 'rm -rf /' > notes.txt", "allow"],
  ["cat <<EOF > notes.md\nrm -rf /\nEOF", "allow"],
  ["./scripts/build.sh", "allow"],
  ["bash scripts/test.sh", "allow"], // a script the line did not write is not read
  ["sh ./scripts/deploy.sh --dry-run", "allow"],
]);

table("text transformed and piped into a shell", [
  ["echo 'zm -zf /' | tr z r | sh", "rm-root"],
  ["echo 'RM -RF /' | tr A-Z a-z | sh", "rm-root"],
  ["echo 'rm -rf /' | cat | sh", "rm-root"],
  ["echo 'rmx -rf /' | tr -d x | bash", "rm-root"],
  ["rev <<< '/ fr- mr' | bash", "rm-root"],
  ["echo '/ fr- mr' | rev | sh", "rm-root"],
  ["echo 'rm -rf X' | sed 's/X/~/' | bash", "rm-home"],
  ["echo 'rm -rf X' | sed -e 's|X|/|g' | bash", "rm-root"],
  ["echo 'rm -rf /' | tac | sh", "rm-root"],
  ["echo 'RM -RF /' | tr '[:upper:]' '[:lower:]' | sh", "rm-root"],
  ["tr z r <<< 'zm -zf /' | sh", "rm-root"],
  ["source <(echo 'rm -rf /' | tr a a)", "rm-root"],
  ["echo {rm,-rf,/} | sh", "rm-root"],
  ["bash <(some-generator)", "unparseable"],
  ["source <(kubectl completion bash)", "unparseable"], // output not known here: an unknown script
  ["bash <(cat script.sh)", "allow"],
  ["bash <(echo 'echo hi')", "allow"],
  ["cat README.md | grep foo", "allow"],
  ["echo cm0gLXJmIC8= | base64 -d | sh", "decode-to-shell"],
  // What the guard cannot evaluate is an unknown script: refused.
  ["echo 'xyz' | awk '{print \"rm -rf /\"}' | sh", "unparseable"],
  ["echo 'rm -rf x' | sed 's/x.*/\\//' | sh", "unparseable"],
  ["git show HEAD:run.sh | sh", "unparseable"],
  ["python3 gen.py | bash", "unparseable"],
  ["echo hi | tr a-z A-Z | tr A-Z a-z | sh", "allow"],
  ["echo 'echo hi' | tr a-z A-Z | sh", "allow"],
  ["cat script.sh | bash", "allow"], // a file read as it is, like `bash script.sh`
]);

table("a command name only known at run time", [
  ["$CMD -rf /", "rm-root"],
  ['"$(cat cmd.txt)" -rf /', "rm-root"],
  ["${X:-rm} -rf /", "rm-root"],
  ["$1 -rf /", "rm-root"],
  ["`cat cmd.txt` -rf /", "rm-root"], // an unknown name with -rf is read as rm too
  ["$X", "unresolved-command"],
  ["$CMD build", "unresolved-command"],
  ['"$TOOL" --version', "unresolved-command"],
  ["$(cat cmd.txt)", "unresolved-command"],
  ["sudo $X", "unresolved-command"],
  ["/bin/r? -rf /", "unresolved-command"],
  ["/bin/r[m] -rf /", "unresolved-command"],
  ["/???/rm -rf /", "rm-root"],
  ["x=$(cat f); $x", "unresolved-command"],
  ["printf -v x rm; $x -rf /", "rm-root"],
  ["read x <<< rm; $x -rf /", "rm-root"],
  ["read -r x <<< rm; $x build", "allow"],
  ["read -r x <<< /; rm -rf $x", "rm-root"],
  ["read -r a b <<< 'rm -rf /'; $a $b", "rm-root"],
  ["read -r x <<EOF\n/etc\nEOF\nrm -rf $x", "rm-system"],
  ["read -r x; $x", "unresolved-command"],
  ["exec {fd}>log.txt", "allow"],
  ['eval "$(ssh-agent -s)"', "unresolved-command"], // eval of output not known here runs an unknown script
  ["cat cmds.txt | xargs -I{} {} -rf /", "unresolved-command"],
  ["rm -rf {a..z}{a..z}", "allow"],
  ["for c in ls pwd; do $c; done", "allow"],
  ["arr[0]=foo; echo ${arr[0]}", "allow"],
  ["i=1; arr[$i]=x", "allow"],
  ["m[key]+=v", "unparseable"], // an indexed array's subscript is arithmetic: key's value is read as an expression
  ["key=1; m[key]+=v", "allow"],
  // A run-time name is unknown whatever it holds: the user's own tools ($EDITOR, $PAGER, $SHELL) included.
  ['"$EDITOR" file', "unresolved-command"],
  ["$EDITOR README.md", "unresolved-command"],
  ["$PAGER log.txt", "unresolved-command"],
  ["$SHELL -c 'echo hi'", "unresolved-command"],
  ["[ -f x ] && echo yes", "allow"],
  ['[[ -n "$x" ]] && echo yes', "allow"],
  ["test -d build && rm -rf build", "allow"],
  ["npm test", "allow"],
  ["make", "allow"],
  ['for f in *.txt; do echo "$f"; done', "allow"],
]);

describe("onUnresolvedCommand", () => {
  const open = resolveOptions({ onUnresolvedCommand: "allow" }, environment).guard;
  it('"allow" lets a command named at run time through when no rule matched', () => {
    expect(checkCommand("$CMD build", open).violation).toBeUndefined();
    expect(checkCommand("`cat cmd.txt` x", open).violation).toBeUndefined();
  });
  it('"allow" still refuses what can be read: ${X:-rm} may be rm', () => {
    expect(checkCommand("${X:-rm} -rf /", open).violation?.rule).toBe("rm-root");
  });
  it('disable: ["unresolved-command"] is the same as allow', () => {
    const disabled = resolveOptions({ disable: ["unresolved-command"] }, environment).guard;
    expect(checkCommand("$CMD build", disabled).violation).toBeUndefined();
  });
  it("the message names the command and says what to do", () => {
    expect(checkCommand("$CMD build", defaults).violation?.message).toMatch(
      /`\$CMD build`: the name of the command it runs is only known when it runs.*Write the command name out literally/,
    );
  });
  it("rejects a value other than block or allow", () => {
    expect(() => resolveOptions({ onUnresolvedCommand: "open" }, environment)).toThrow(
      'option "onUnresolvedCommand": onUnresolvedCommand must be "block" or "allow"',
    );
  });
});
