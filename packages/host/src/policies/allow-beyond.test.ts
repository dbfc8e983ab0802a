import { quoteWord } from "@toolgate/plugin-sdk";
import { describe, expect, it } from "vitest";
import { PermissionRules } from "./permission-rules.js";

// An allow rule that names a program vouches only for the program: never for the code its options, script or
// environment run (`runsBeyondItself` in @toolgate/shell), whatever the glob says.

const where = { cwd: "/work/project", home: "/home/me" };
/** What `ask: bash` with an allow for the line's program (`sed*`) decides on the line. */
function onLine(words: readonly string[]): string | undefined {
  const rules = new PermissionRules({ ask: ["bash"], allow: [`bash:command=${words[0]}*`] }, where);
  return rules.check("bash", { command: words.map(quoteWord).join(" ") }, "shell")?.decision.action;
}

describe("sed's e command and s///e flag are beyond a sed allow", () => {
  it.each([
    "e",
    "1e rm -rf ~",
    "1 e rm",
    "$e rm",
    "/x/e rm",
    "/a\\/b/e rm",
    "\\,x,e rm",
    "1,5e rm",
    "1~2e rm",
    "p;e rm",
    "p\ne rm",
    "{e rm\n}",
    "1!e rm",
    "s/x/rm -rf ~/e",
    "s/x/y/ge",
    "s|x|y|e",
    "s/a\\/b/c/e",
    "s/x/y/w out\ne rm",
    "y/ab/cd/;e rm",
    "s/x",
    "s",
    "/unterminated",
    "K",
  ])("%j may run a command", (script) => {
    expect(onLine(["sed", "-n", script, "f"])).toBe("ask");
  });

  it.each([
    "p",
    "1,5p",
    "$p",
    "s/hello/bye/g",
    "s/e/E/",
    "s|e|x|2",
    "/e/d",
    "/^#/d;s/a/b/",
    "y/e/f/",
    "a\\\nappended e text",
    "# a comment with e",
    "=",
    "1~3{p;d}",
    "s/x/y/w file.e",
  ])("%j runs no command", (script) => {
    expect(onLine(["sed", "-n", script, "f"])).toBe("allow");
  });
});

describe("options and scripts that run code are beyond an allow", () => {
  it.each([
    ["sed", "-n", "1e rm", "f"],
    ["sed", "-ne", "1e rm", "f"],
    ["sed", "-n", "-e", "p", "-e", "1e rm", "f"],
    ["sed", "--expression=1e rm", "f"],
    ["sed", "--expr", "1e rm", "f"],
    ["sed", "-f", "x.sed", "f"],
    ["sed", "-nf", "x.sed", "f"],
    ["sed", "--file=x.sed"],
    ["gsed", "s/x/y/e"],
    ["git", "-c", "core.pager=rm", "log"],
    ["git", "-ccore.pager=rm", "log"],
    ["git", "-c", "CORE.sshCommand=x", "fetch"],
    ["git", "--config-env=core.pager=X", "log"],
    ["git", "--exec-path=/tmp", "status"],
    ["git", "-C", "repo", "-c", "core.editor=x", "commit"],
    ["git", "grep", "-Orm", "x"],
    ["git", "grep", "-inO", "rm", "x"],
    ["git", "grep", "--open-files-in-pager=rm", "x"],
    ["git", "grep", "--open", "x"],
    ["git", "fetch", "--upload-pack=rm", "origin"],
    ["git", "fetch", "--upl=rm", "origin"],
    ["git", "push", "--receive-pack=rm", "origin"],
    ["git", "archive", "--exec=rm", "--remote=x"],
    ["git", "clone", "-u", "rm", "x"],
    ["git", "rebase", "-x", "rm", "main"],
    ["git", "rebase", "--exec", "rm", "main"],
    ["git", "difftool", "-x", "rm"],
    ["git", "difftool", "--extcmd=rm"],
    ["git", "send-email", "--sendmail-cmd=rm", "x"],
    ["git", "bisect", "run", "rm"],
    ["git", "submodule", "foreach", "rm"],
    ["git", "filter-branch", "--tree-filter", "rm", "HEAD"],
    ["tar", "-tf", "x", "--checkpoint-action=exec=rm"],
    ["tar", "-tf", "x", "--checkpoint-a=exec=rm"],
    ["tar", "-tf", "x", "--to-command=rm"],
    ["tar", "-tf", "x", "--to-c=rm"],
    ["tar", "-tf", "x", "-I", "rm"],
    ["tar", "-tIf", "rm", "x"],
    ["tar", "tfI", "x", "rm"],
    ["tar", "-tf", "x", "-F", "rm"],
    ["tar", "-tf", "x", "--info-script=rm"],
    ["tar", "-tf", "x", "--new-volume-script=rm"],
    ["tar", "-tf", "x", "--use-compress-program=rm"],
    ["tar", "-tf", "x", "--rsh-command=rm"],
    ["tar", "-tf", "x", "--rmt-command=rm"],
    ["bsdtar", "-tf", "x", "--use-compress-program=rm"],
    ["awk", 'BEGIN{system("rm")}'],
    ["awk", '{print | "sh"}'],
    ["awk", 'BEGIN{"date" | getline d}'],
    ["gawk", "-f", "p.awk"],
    ["gawk", "--load", "x"],
    ["awk", "-F:", "-v", "x=1", 'BEGIN{system("rm")}'],
    ["vim", "-c", "!rm", "f"],
    ["vim", "+!rm", "f"],
    ["nvim", "--cmd", "!rm"],
    ["vi", "-S", "x.vim"],
    ["rsync", "-e", "rm", "a", "b:c"],
    ["rsync", "-ave", "rm", "a", "b:c"],
    ["rsync", "--rsh=rm", "a", "b:c"],
    ["rsync", "--rsync-path=rm", "a", "b:c"],
    ["ssh", "-o", "ProxyCommand=rm", "h"],
    ["scp", "-S", "rm", "a", "h:b"],
    ["zip", "-TT", "rm", "x.zip", "f"],
    ["enable", "-f", "/tmp/x.so", "x"],
    ["-c", "rm -rf ~"],
    ["flock", "/tmp/l", "-c", "rm"],
    ["script", "-qc", "rm"],
    ["man", "-P", "rm", "ls"],
    ["man", "--pager=rm", "ls"],
    ["gdb", "-batch", "-ex", "shell rm", "x"],
    ["emacs", "--batch", "--eval", '(shell-command "rm")'],
    ["at", "now"],
    ["batch"],
    ["git", "config", "alias.x", "!rm -rf ~"],
    ["git", "config", "--global", "core.pager", "rm"],
    ["git", "config", "set", "core.sshCommand", "rm"],
    // The command a remote host or a container runs is code the program runs, as `bash -c` is.
    ["ssh", "host", "ls"],
    ["docker", "run", "alpine", "ls"],
    ["kubectl", "exec", "pod", "--", "ls"],
  ])("%s %s … is beyond an allow", (...words) => {
    expect(onLine(words)).toBe("ask");
  });

  it.each([
    ["sed", "-n", "1,5p", "f"],
    ["sed", "-i", "s/a/b/", "f"],
    ["sed", "-i.bak", "-e", "s/e/f/", "f"],
    ["sed", "--quiet", "p", "f"],
    ["git", "status"],
    ["git", "-c", "alias.st=status", "st"],
    ["git", "-c", "color.ui=never", "status"],
    ["git", "-c", "user.name=x", "-c", "user.email=y", "commit", "-m", "x"],
    ["git", "log", "--oneline", "-c"],
    ["git", "grep", "-n", "foo"],
    ["git", "grep", "--extended-regexp", "foo"],
    ["git", "fetch", "-u", "origin"],
    ["git", "-C", "sub", "status"],
    ["tar", "-tf", "x.tar"],
    ["tar", "--checkpoint=100", "-tzf", "x.tgz"],
    ["tar", "xzf", "x.tgz"],
    ["tar", "--totals", "-cf", "x.tar", "dir"],
    ["awk", "{print $1}", "f"],
    ["awk", "-F|", "{print $1}", "f"],
    ["vim", "f"],
    ["rsync", "-av", "a", "b"],
    ["zip", "-r", "x.zip", "dir"],
    ["ls", "-c"],
    ["make", "test"],
    ["git", "config", "user.name", "x"],
    ["git", "config", "--get", "core.pager"],
    ["git", "config", "--list"],
    ["man", "ls"],
    ["flock", "/tmp/l", "ls"],
  ])("%s %s … is in a plain form", (...words) => {
    expect(onLine(words)).toBe("allow");
  });
});
