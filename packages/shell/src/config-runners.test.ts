import { describe, expect, it } from "vitest";
import { problemsOf } from "./test-helpers.js";

/**
 * A program that runs code from its configuration files (a runner: make, npm, git, a login shell, pytest,
 * …), run after the line may have written one of them, runs what the line wrote, which is not read here:
 * unknown, so refused (issue #25). A runner whose configuration the line did not touch runs as it would alone.
 */
const written: Record<string, readonly string[]> = {
  make: [
    "echo 'all:;rm -rf ~' > Makefile; make",
    "printf 'all:\\n\\trm -rf ~\\n' > makefile; make all",
    "echo 'all:;rm -rf ~' > GNUmakefile; make -j4",
    "echo 'all:;rm -rf ~' > x.mk; make -f x.mk",
    "echo 'all:;rm -rf ~' > x.txt; make -f x.txt",
    "echo 'all:;rm -rf ~' > x.txt; make --file=x.txt",
    "echo 'all:;rm -rf ~' > x.txt; make -fx.txt",
    "echo 'x:;rm -rf ~' > rules.mk; make test",
    "echo 'all:;rm -rf ~' > sub/Makefile; make -C sub",
    "cat > Makefile <<EOF\nall:\n\trm -rf ~\nEOF\nmake",
    "cp /tmp/m Makefile; make",
    "echo 'all:;rm -rf ~' | tee Makefile; make",
    "echo 'all:;rm -rf ~' > Makefile; timeout 60 make",
    "echo 'all:;rm -rf ~' > Makefile; gmake",
  ],
  "npm, pnpm, yarn, npx": [
    `echo '{"scripts":{"test":"rm -rf ~"}}' > package.json; npm test`,
    `echo '{"scripts":{"x":"rm -rf ~"}}' > package.json; npm run x`,
    `echo '{"scripts":{"x":"rm -rf ~"}}' > package.json; npm run-script x`,
    `echo '{"scripts":{"postinstall":"rm -rf ~"}}' > package.json; npm install`,
    `echo '{"scripts":{"x":"rm -rf ~"}}' > package.json; pnpm x`,
    `echo '{"scripts":{"x":"rm -rf ~"}}' > package.json; pnpm run x`,
    `echo '{"scripts":{"x":"rm -rf ~"}}' > package.json; yarn x`,
    `echo '{"bin":{"x":"x.js"}}' > package.json; npx x`,
    "echo 'script-shell=/tmp/s' > .npmrc; npm test",
    "echo 'script-shell=/tmp/s' >> ~/.npmrc; npm test",
    "echo 'x' > .pnpmfile.cjs; pnpm install",
    "echo 'x' > .yarnrc.yml; yarn",
    "sed -i 's/vitest/rm -rf ~/' package.json; npm test",
    "echo 'rm -rf ~' > node_modules/.bin/vitest; npm test",
    "echo 'rm -rf ~' > node_modules/vitest/vitest.mjs; npx vitest",
  ],
  git: [
    "printf 'rm -rf ~' > .git/hooks/pre-commit; git commit -m x",
    "cp /tmp/h .git/hooks/pre-push; git push",
    "printf 'rm -rf ~' > .husky/pre-commit; git commit -m x",
    "printf '[core]\\npager = rm -rf ~' > ~/.gitconfig; git log",
    "printf '[alias]\\nx = !rm -rf ~' >> ~/.gitconfig; git x",
    "printf '[core]\\nfsmonitor = rm -rf ~' > ~/.config/git/config; git status",
    "printf '* filter=x' > .gitattributes; git add .",
  ],
  "login and interactive shells": [
    "echo 'rm -rf ~' >> ~/.bashrc; bash -i",
    "echo 'rm -rf ~' >> ~/.bash_aliases; bash -i",
    "echo 'rm -rf ~' > /etc/profile.d/x.sh; bash -l",
    "echo 'rm -rf ~' >> ~/.bashrc; bash",
    "echo 'rm -rf ~' >> ~/.bash_profile; bash -l",
    "echo 'rm -rf ~' >> ~/.bash_profile; bash --login -c true",
    "echo 'rm -rf ~' >> ~/.profile; sh -l",
    "echo 'rm -rf ~' >> ~/.profile; su - ada",
    "echo 'rm -rf ~' >> ~/.bashrc; su ada",
    "echo 'rm -rf ~' >> ~/.bashrc; sudo -i",
    "echo 'rm -rf ~' >> ~/.bashrc; sudo -s",
    "echo 'rm -rf ~' > ~/.zshenv; zsh -c true",
    "echo 'rm -rf ~' > ~/.zshrc; zsh -i",
  ],
  "Python, Ruby, Rust and other builds": [
    `echo 'import os; os.system("rm -rf ~")' > setup.py; pip install .`,
    `echo 'import os; os.system("rm -rf ~")' > setup.py; pip3 install -e .`,
    `echo 'x' > pyproject.toml; pip install .`,
    `echo 'import os; os.system("rm -rf ~")' > conftest.py; pytest`,
    `echo 'import os; os.system("rm -rf ~")' > tests/conftest.py; pytest -q`,
    `echo '[tox]' > tox.ini; tox`,
    `echo 'import os; os.system("rm -rf ~")' > sitecustomize.py; python3 -c 'print(1)'`,
    `echo 'fn main(){}' > build.rs; cargo build`,
    "echo 'rm -rf ~' > .envrc; direnv allow",
    `echo 'task :default do sh "rm -rf ~" end' > Rakefile; rake`,
    "printf 'x:\\n\\trm -rf ~' > justfile; just x",
    "echo 'x' > Taskfile.yml; task x",
    "echo 'x' > build.gradle; gradle build",
    "echo 'x' > pom.xml; mvn test",
    "echo 'x' > CMakeLists.txt; cmake .",
    "echo 'Host *' > ~/.ssh/config; ssh host",
  ],
  "a configuration under a folder copied or an unknown write": [
    "echo 'all:;rm -rf ~' > d/Makefile; cp -r d/. .; make",
    "base64 -d <<< dGFy > a.tar; tar -xf a.tar; make",
    "echo '+++ package.json' | patch; npm test",
  ],
};

const untouched = [
  "make && make test",
  "make -j4 build",
  "npm test",
  "npm ci && npm run build",
  "git commit -m x",
  "echo x > README.md && git commit -am x",
  "echo x > notes.txt && npm test",
  "echo x > notes.txt && make",
  "echo x > src/app.ts && pnpm test",
  "npm test > test-output.txt 2>&1",
  "npm run build 2>&1 | tee build.log",
  "echo x > log.txt; git add -A && git commit -m x && git push",
  "echo x > a.txt; bash scripts/check.sh",
  "echo x > a.txt; bash -c 'echo hi'",
  "echo x > a.txt; pytest -q",
  "echo x > a.txt; pip install -r requirements.txt",
  "echo x > a.txt; cargo test",
  "echo x > a.txt; sudo apt-get install -y jq",
  "cat .bashrc; bash -i",
  "echo x > src/hooks/useX.ts; npm test",
  "echo x > config/app.json; git status",
];

describe("a runner run after the line may have written a configuration file it reads runs unknown code", () => {
  for (const [family, lines] of Object.entries(written)) {
    it.each(lines)(`${family}: %s`, (line) => {
      expect(problemsOf(line).length).toBeGreaterThan(0);
    });
  }
});

describe("a runner whose configuration the line did not write runs as it would alone", () => {
  it.each(untouched)("%s", (line) => {
    expect(problemsOf(line)).toEqual([]);
  });
});
