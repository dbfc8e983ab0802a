import { mkdirSync, mkdtempSync, realpathSync, renameSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { resolveSettings } from "../settings.js";
import { PolicyProtection } from "./policy-protection.js";

// The protection is built once, at startup; the project changes under it afterwards. Every link below
// is made after the protection exists, so only a look at the file system on each call can see it.

let root: string;
let project: string;
let home: string;
let protection: PolicyProtection;

beforeEach(async () => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "toolgate-links-")));
  project = join(root, "proj");
  home = join(root, "home");
  mkdirSync(join(project, "plugins"), { recursive: true });
  mkdirSync(join(project, "src", "deep"), { recursive: true });
  mkdirSync(join(home, ".copilot"), { recursive: true });
  writeFileSync(join(project, "toolgate.config.json"), "{}");
  protection = new PolicyProtection(await resolveSettings({ cwd: project, configFile: "toolgate.config.json" }), "block", home);
});

afterEach(() => rmSync(root, { recursive: true, force: true }));

const write = (path: string) => ({ name: "Write", args: { file_path: path, content: "x" } });

describe("links made after startup are followed", () => {
  it("a file link in the project that points at the config", () => {
    expect(protection.check(write("notes.json"))).toBeUndefined();
    symlinkSync(join(project, "toolgate.config.json"), join(project, "notes.json"));
    expect(protection.check(write("notes.json"))).toMatchObject({ action: "block" });
  });

  it("a folder link deep in the project that points at the plugins folder", () => {
    expect(protection.check(write("src/deep/lib/guard.ts"))).toBeUndefined();
    symlinkSync(join(project, "plugins"), join(project, "src", "deep", "lib"));
    expect(protection.check(write("src/deep/lib/guard.ts"))).toMatchObject({ action: "block" });
  });

  it("the project folder itself, moved away and replaced by a link to the home", () => {
    expect(protection.check(write(join(project, ".copilot", "config.json")))).toBeUndefined();
    renameSync(project, join(root, "moved"));
    symlinkSync(home, project);
    expect(protection.check(write(join(project, ".copilot", "config.json")))).toMatchObject({ action: "block" });
  });

  it("a path with no link on it stays allowed", () => {
    symlinkSync(join(project, "plugins"), join(root, "elsewhere"));
    expect(protection.check(write("src/deep/ok.ts"))).toBeUndefined();
  });
});
