import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { makeTempDir, removeTempDirs, runCli, writeFiles } from "../../helpers/cli-harness.js";

afterAll(removeTempDirs);

// Each test spawns a real `npm install` of a local folder (no registry needed): seconds, not milliseconds.
const installTimeout = 60_000;

/** A project under the OS temp folder (so nothing resolves the workspace's packages), and two packages beside it. */
function createProject(): { project: string; goodPlugin: string; notPlugin: string } {
  const root = makeTempDir("os", "cli-add-");
  writeFiles(root, {
    "project/package.json": JSON.stringify({ name: "project", version: "1.0.0", private: true }),
    "project/package-lock.json": JSON.stringify({
      name: "project",
      version: "1.0.0",
      lockfileVersion: 3,
      requires: true,
      packages: { "": { name: "project", version: "1.0.0" } },
    }),
    "good-plugin/package.json": JSON.stringify({
      name: "toolgate-plugin-good",
      version: "1.0.0",
      type: "module",
      main: "index.js",
      keywords: ["toolgate-plugin"],
    }),
    "good-plugin/index.js": `export default { name: "good", hooks: { pre_tool_call(call) { if (call.name === "nuke") return { action: "block", message: "no nukes" }; } } };\n`,
    "not-plugin/package.json": JSON.stringify({ name: "left-pad-ish", version: "1.0.0", type: "module", main: "index.js" }),
    "not-plugin/index.js": "export const pad = (text) => ` ${text}`;\n",
  });
  return { project: join(root, "project"), goodPlugin: join(root, "good-plugin"), notPlugin: join(root, "not-plugin") };
}

describe("toolgate add", () => {
  let project: string;
  let goodPlugin: string;
  let notPlugin: string;

  beforeEach(() => {
    ({ project, goodPlugin, notPlugin } = createProject());
  });

  const readConfig = (file = "toolgate.config.mjs") => readFileSync(join(project, file), "utf8");

  it(
    "installs a plugin with npm (package-lock.json) and creates toolgate.config.mjs naming it",
    async () => {
      const { code, stdout, stderr } = await runCli(["add", goodPlugin, "--cwd", project]);

      expect(code, stderr).toBe(0);
      expect(stderr).toContain(`$ npm install file:${goodPlugin}`);
      expect(stdout.trim()).toBe('created toolgate.config.mjs with plugins: ["toolgate-plugin-good"]');
      expect(readConfig()).toBe('export default { plugins: ["toolgate-plugin-good"] };\n');
      expect(existsSync(join(project, "node_modules/toolgate-plugin-good/package.json"))).toBe(true);
      expect(JSON.parse(readFileSync(join(project, "package.json"), "utf8")).dependencies).toHaveProperty("toolgate-plugin-good");

      const check = await runCli(["check", "--cwd", project, "--json"]);
      expect(check.code).toBe(0);
      expect(JSON.parse(check.stdout).plugins).toEqual([expect.objectContaining({ name: "good", source: "npm", status: "loaded" })]);
    },
    installTimeout,
  );

  it(
    "adds to plugins in an existing toolgate.config.ts, keeping the rest of the file, and never twice",
    async () => {
      const original = [
        'import { defineConfig } from "@toolgate/host";',
        "",
        "// Policies for the support agent.",
        "export default defineConfig({",
        '  plugins: ["./local-policy.ts", ["toolgate-plugin-other", { strict: true }]],',
        "  hookTimeoutMs: 2000, // generous for the slow policy",
        "});",
        "",
      ].join("\n");
      writeFiles(project, { "toolgate.config.ts": original });

      const first = await runCli(["add", goodPlugin, "--cwd", project]);

      expect(first.code, first.stderr).toBe(0);
      expect(first.stdout.trim()).toBe("added toolgate-plugin-good to plugins in toolgate.config.ts");
      const updated = readConfig("toolgate.config.ts");
      // magicast (recast) prints the changed array one entry per line; the entries are what matter.
      expect(updated.replace(/\s+/g, " ")).toContain('plugins: [ "./local-policy.ts", ["toolgate-plugin-other", { strict: true }], "toolgate-plugin-good" ],');
      expect(updated).toContain("// Policies for the support agent.");
      expect(updated).toContain("hookTimeoutMs: 2000, // generous for the slow policy");
      expect(existsSync(join(project, "toolgate.config.mjs"))).toBe(false);
      expect(updated.endsWith("});\n"), "the file keeps its final newline").toBe(true);

      const second = await runCli(["add", goodPlugin, "--cwd", project]);

      expect(second.code, second.stderr).toBe(0);
      expect(second.stdout.trim()).toBe("toolgate-plugin-good is already in toolgate.config.ts");
      expect(readConfig("toolgate.config.ts")).toBe(updated);
    },
    installTimeout,
  );

  it(
    "refuses a package that is not a toolgate plugin and leaves the config untouched",
    async () => {
      const config = "export default { plugins: [] }; // keep me\n";
      writeFiles(project, { "toolgate.config.mjs": config });

      const { code, stdout, stderr } = await runCli(["add", notPlugin, "--cwd", project]);

      expect(code).toBe(1);
      expect(stdout).toBe("");
      expect(stderr).toMatch(/^error: left-pad-ish is not a toolgate plugin: .*node_modules\/left-pad-ish\/index\.js: /m);
      expect(readConfig()).toBe(config);
    },
    installTimeout,
  );

  it(
    "does not create a config for a package that is not a toolgate plugin",
    async () => {
      const { code } = await runCli(["add", notPlugin, "--cwd", project]);

      expect(code).toBe(1);
      expect(existsSync(join(project, "toolgate.config.mjs"))).toBe(false);
    },
    installTimeout,
  );

  it(
    "exits 1 naming the command when the install fails",
    async () => {
      const { code, stderr } = await runCli(["add", join(project, "no-such-folder"), "--cwd", project]);

      expect(code).toBe(1);
      expect(stderr).toContain(`error: \`npm install file:${join(project, "no-such-folder")}\` failed (exit code`);
      expect(existsSync(join(project, "toolgate.config.mjs"))).toBe(false);
    },
    installTimeout,
  );
});
