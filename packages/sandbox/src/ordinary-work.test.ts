import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { sandboxStatus } from "./availability.js";
import { bwrapArguments } from "./bwrap-arguments.js";
import { containLine } from "./contain.js";
import { resolveOptions, type SandboxOptions } from "./options.js";
import { planFor } from "./plan.js";
import { fillHome, fillProject, freshRoot, worlds } from "./proof-world.js";

const status = sandboxStatus();
const skip = status.available ? false : `no sandbox can start here: ${"problem" in status ? status.problem : ""}`;
const tsc = join(worlds, "../../node_modules/.bin/tsc");

describe.skipIf(skip)("ordinary agent work runs unchanged inside the sandbox", () => {
  const root = freshRoot("ordinary-");
  const home = join(root, "home");
  const project = join(root, "project");
  fillHome(home);
  mkdirSync(project);
  const { config, plugins } = fillProject(project);
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  /** Runs `line` contained as the plugin would, with bash in the project and the fake home. */
  const contained = (line: string, options: SandboxOptions = {}) => {
    if (!status.available) throw new Error("no sandbox");
    const plan = planFor(resolveOptions(options, project, home), project, [config, plugins], home);
    if ("problem" in plan) throw new Error(plan.problem);
    const ran = spawnSync(status.bash, ["-c", containLine(line, status, bwrapArguments(plan))], {
      cwd: project,
      encoding: "utf8",
      timeout: 30_000,
      env: {
        PATH: process.env["PATH"] ?? "/usr/bin:/bin",
        HOME: home,
        LANG: "C.UTF-8",
        GIT_AUTHOR_NAME: "a",
        GIT_AUTHOR_EMAIL: "a@example.com",
        GIT_COMMITTER_NAME: "a",
        GIT_COMMITTER_EMAIL: "a@example.com",
      },
    });
    return { status: ran.status, stdout: ran.stdout, stderr: ran.stderr };
  };

  it("git: init, add, commit, status, log, diff", () => {
    const made = contained(
      "git init -q -b main && git add -A && git commit -q -m first && echo change >> README.md && git status --short && git log --oneline | wc -l && git diff --stat",
    );
    expect(made.stderr).toBe("");
    expect(made.status).toBe(0);
    expect(made.stdout).toMatch(/^ M README.md\n1\n README.md \| 1 \+\n 1 file changed, 1 insertion\(\+\)\n$/);
    expect(existsSync(join(project, ".git/HEAD"))).toBe(true);
  });

  it("a build writes dist/ in the project (node -e)", () => {
    const built = contained(
      `node -e "require('fs').mkdirSync('dist', { recursive: true }); require('fs').writeFileSync('dist/out.js', 'console.log(1)\\n'); console.log('built')"`,
    );
    expect(built).toEqual({ status: 0, stdout: "built\n", stderr: "" });
    expect(readFileSync(join(project, "dist/out.js"), "utf8")).toBe("console.log(1)\n");
  });

  it.skipIf(!existsSync(tsc) && `tsc does not resolve from the repository's node_modules (${tsc})`)("a build with tsc compiles a file into dist/", () => {
    const built = contained(
      `${tsc} --outDir dist --module nodenext --target es2022 src/main.ts && node -e "import('./dist/main.js').then((m) => console.log(m.x))"`,
    );
    expect(built.stderr).toBe("");
    expect(built).toMatchObject({ status: 0, stdout: "1\n" });
    expect(readFileSync(join(project, "dist/main.js"), "utf8")).toContain("export const x = 1;");
  });

  it("the tests run (node --test), and a failing test still fails with its exit code", () => {
    writeFileSync(join(project, "ok.test.mjs"), "import test from 'node:test';\ntest('adds', () => { if (1 + 1 !== 2) throw new Error('no'); });\n");
    const passed = contained("node --test ok.test.mjs");
    expect(passed.status).toBe(0);
    expect(passed.stdout).toMatch(/# pass 1\n/);
    writeFileSync(join(project, "bad.test.mjs"), "import test from 'node:test';\ntest('fails', () => { throw new Error('expected failure'); });\n");
    const failed = contained("node --test bad.test.mjs");
    expect(failed.status).toBe(1);
    expect(failed.stdout).toMatch(/# fail 1\n/);
  });

  it("a package install with the network on and ~/.npm writable (a local tarball made with npm pack)", () => {
    const library = join(project, "vendor/tiny-lib");
    mkdirSync(library, { recursive: true });
    writeFileSync(join(library, "package.json"), JSON.stringify({ name: "tiny-lib", version: "1.0.0", main: "index.js" }));
    writeFileSync(join(library, "index.js"), "module.exports = 'tiny';\n");
    writeFileSync(join(project, "package.json"), JSON.stringify({ name: "app", version: "1.0.0", private: true }));
    const options: SandboxOptions = { network: "on", writable: ["~/.npm"] };
    const packed = contained("cd vendor/tiny-lib && npm pack --silent", options);
    expect(packed).toMatchObject({ status: 0, stdout: "tiny-lib-1.0.0.tgz\n" });
    const installed = contained(
      "npm install --no-audit --no-fund --silent ./vendor/tiny-lib/tiny-lib-1.0.0.tgz && node -e \"console.log(require('tiny-lib'))\"",
      options,
    );
    expect(installed).toMatchObject({ status: 0, stdout: "tiny\n" });
    expect(existsSync(join(project, "node_modules/tiny-lib/index.js"))).toBe(true);
    expect(JSON.parse(readFileSync(join(project, "package.json"), "utf8")).dependencies).toEqual({ "tiny-lib": "file:vendor/tiny-lib/tiny-lib-1.0.0.tgz" });
  });

  it("the same npm install without ~/.npm writable cannot keep its cache in the read-only home", () => {
    const refused = contained("npm cache add ./vendor/tiny-lib/tiny-lib-1.0.0.tgz", { network: "on" });
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toMatch(/EROFS|read-only/i);
  });
});
