import { describe, expect, it } from "vitest";
import { readingOf, runs } from "./test-helpers.js";

describe("sed as a runner", () => {
  it.each([
    "sed -n '1,5p' f",
    "sed -i 's/a/b/' f",
    "sed -i.bak 's/a/b/g' f",
    "sed -E 's/(a|b)+/x/g' f",
    "sed -e 's/a/b/' -e '/^#/d' f",
    "sed --expression='s/a/b/' f",
    "sed --in-place -e 's/x/y/' f",
    "sed 's|/usr/local|/opt|g' f",
    "sed '/start/,/end/d' f",
    "sed '$d' f",
    "sed -n '/x/{p;q}' f",
    "sed '1i\\\nheader' f",
    "sed 'a hello' f",
    "sed 'y/abc/xyz/' f",
    "sed ':a;N;$!ba;s/\\n/ /g' f",
    "sed -n 'w /dev/stdout' f",
    "sed -n 'w out.txt' f",
    "sed 's/a/b/w out.txt' f",
    "sed 's/e/E/g' f",
    "sed 's/x/e/' f",
    "sed --sandbox 's/x/y/e' f",
    "sed -z 's/\\n//g' f",
    "sed '0~3d' f",
    "sed '# comment\ns/a/b/' f",
  ])("%s runs nothing more", (command) => {
    expect(readingOf(command)).toBe("plain");
  });

  it.each([
    ["sed -n '1e rm -rf ~' f", "rm -rf ~"],
    ["sed '1e rm -rf ~' f", "rm -rf ~"],
    ["sed -e 's/a/b/' -e '1e rm -rf ~' f", "rm -rf ~"],
    ["sed 's/a/b/;e rm -rf ~' f", "rm"],
    ["sed '$!e rm -rf ~' f", "rm -rf ~"],
    ["sed '/x/ e rm -rf ~' f", "rm -rf ~"],
    ["sed --expr='1e rm -rf ~' f", "rm -rf ~"],
    ["sed -n -e '1{e rm -rf ~\n}' f", "rm -rf ~"],
  ])("%s runs %s", (command, nested) => {
    expect(runs(command, nested)).toBe(true);
  });

  it.each([
    "echo x | sed 's/x/rm -rf ~/e'",
    "sed 's/.*/rm -rf ~/e' f",
    "sed 's/x/y/ge' f",
    "sed 's/x/y/eg' f",
    "sed e f",
    "sed '1e' f",
    "sed -f script.sed f",
    "sed --file=script.sed f",
    "sed -n 'w /home/ada/.bashrc' f",
    "sed 's/a/b/w /etc/passwd' f",
    "sed 'w ../x' f",
    "sed -x 's/a/b/' f",
    "sed --frobnicate 's/a/b/' f",
    "sed 'K' f",
    "sed 's/a/b' f",
    'sed "$SCRIPT" f',
  ])("%s is unknown", (command) => {
    expect(readingOf(command)).toBe("unknown");
  });
});
