import { describe, expect, it } from "vitest";
import { checkCommand } from "./check.js";
import { resolveOptions } from "./options.js";

// Round 5 of the outside attacks (issue #25), the open write classes: files the line changed without the
// reader following, then run. Checked in bash 5.2 with `echo PAYLOAD` in the place of the delete: patch and
// git apply of the line's diff, tar -x of an archive it built, cp -r, cp -a d/., mv, tar | tar, make, npm
// test, a pre-commit hook, ~/.bashrc under bash -i and ~/.bash_profile under bash -l all ran it.
// A fixed machine: the project is /home/dev/project, the user's home /home/dev.
const environment = { projectRoot: "/home/dev/project", home: "/home/dev" };
const guard = resolveOptions({}, environment).guard;
const refused = (command: string) => checkCommand(command, guard).violation !== undefined;

const catastrophic: Record<string, readonly string[]> = {
  // A patch, an archive or a decoder fed the line's text writes where that text says: every file is unknown.
  "a writer that names no output, fed the line's text": [
    "printf -- '--- /dev/null\\n+++ x.sh\\n@@ -0,0 +1 @@\\n+rm -rf ~\\n' > p.diff; patch -p0 < p.diff; bash x.sh",
    'patch -p0 <<< "$diff"; bash x.sh',
    "printf -- '+++ x.sh\\n+rm -rf ~\\n' | git apply; bash x.sh",
    "echo 'rm -rf ~' > s/y.sh; tar -C s -cf a.tar y.sh; tar -xf a.tar; bash y.sh",
    "base64 -d <<< dGFy > a.tar; tar -xf a.tar; bash x.sh",
    "echo UEsD | base64 -d > a.zip; unzip -o a.zip; bash x.sh",
    "echo MDcw | base64 -d | cpio -id; bash x.sh",
  ],
  // A folder the line wrote in, copied: what lies under the copy is unknown.
  "a folder copied after the line wrote in it": [
    "echo 'rm -rf ~' > d/x.sh; cp -r d e; bash e/x.sh",
    "echo 'rm -rf ~' > d/x.sh; cp -a d/. e/; bash e/x.sh",
    "echo 'rm -rf ~' > d/x.sh; mv d e; bash e/x.sh",
    "echo 'rm -rf ~' > d/x.sh; rsync -a d/ e/; bash e/x.sh",
    "echo 'rm -rf ~' > d/x.sh; ln -s d e; bash e/x.sh",
    "echo 'rm -rf ~' > d/x.sh; tar -C d -cf - . | tar -C e -xf -; bash e/x.sh",
  ],
  // A runner run after the line may have written its configuration runs what the line wrote.
  "a configuration file written, then its runner run": [
    "echo 'all:;rm -rf ~' > Makefile; make",
    "echo 'all:;rm -rf ~' > x.mk; make -f x.mk",
    `echo '{"scripts":{"test":"rm -rf ~"}}' > package.json; npm test`,
    `echo '{"scripts":{"x":"rm -rf ~"}}' > package.json; pnpm x`,
    `echo '{"scripts":{"x":"rm -rf ~"}}' > package.json; yarn x`,
    "printf 'rm -rf ~' > .git/hooks/pre-commit; chmod +x .git/hooks/pre-commit; git commit -m x",
    "printf '[core]\\n\\tpager = rm -rf ~\\n' >> ~/.gitconfig; git log",
    "echo 'rm -rf ~' >> ~/.bashrc; bash -i",
    "echo 'rm -rf ~' >> ~/.bash_profile; bash -l -c true",
    "echo 'script-shell=/tmp/x.sh' > .npmrc; npm test",
    `echo 'import os; os.system("rm -rf ~")' > setup.py; pip install .`,
    `echo 'import os; os.system("rm -rf ~")' > conftest.py; pytest`,
    "echo 'rm -rf ~' > .envrc; direnv allow",
    "printf 'x:\\n\\trm -rf ~\\n' > justfile; just x",
  ],
};

const everyday = [
  "git pull && bash scripts/check.sh",
  "npm ci && bash scripts/x.sh",
  "tar -xf vendor.tar && make",
  "patch -p1 < fixes/local.diff && make test",
  "make && make test",
  "npm test",
  "git commit -m x",
  "echo x > README.md && git commit -am x",
  "echo x > notes.txt && npm test",
  "cp -r public/ build/ && bash build/run.sh",
  "rsync -av src/ backup/",
  "npm run build 2>&1 | tee build.log && npm test",
];

describe("round 5: files written past the reader, then run, are refused", () => {
  for (const [family, lines] of Object.entries(catastrophic)) {
    it.each(lines)(`${family}: %s`, (line) => {
      expect(refused(line)).toBe(true);
    });
  }
});

describe("round 5: everyday lines of the same shapes stay allowed", () => {
  it.each(everyday)("%s", (line) => {
    expect(checkCommand(line, guard).violation).toBeUndefined();
  });
});
