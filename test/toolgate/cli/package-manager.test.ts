import { afterEach, describe, expect, it } from "vitest";
import { detectPackageManager, installCommand } from "../../../packages/toolgate/src/cli/install/package-manager.js";
import { normalizeSpec, packageNameOf } from "../../../packages/toolgate/src/cli/install/package-spec.js";
import { makeTempDir, removeTempDirs, writeFiles } from "../../helpers/cli-harness.js";

const path = process.env.PATH;

afterEach(() => {
  process.env.PATH = path;
  removeTempDirs();
});

describe("detectPackageManager", () => {
  it.each([
    ["package-lock.json", "npm"],
    ["pnpm-lock.yaml", "pnpm"],
    ["yarn.lock", "yarn"],
  ])("reads %s as %s", (lockfile, manager) => {
    const dir = makeTempDir("os");
    writeFiles(dir, { [lockfile]: "" });
    expect(detectPackageManager(dir)).toBe(manager);
  });

  it("falls back to npm without a lockfile", () => {
    expect(detectPackageManager(makeTempDir("os"))).toBe("npm");
  });
});

describe("installCommand", () => {
  it("uses npm install and yarn add", () => {
    expect(installCommand("npm", "x", "/")).toEqual({ command: "npm", args: ["install", "x"] });
    expect(installCommand("yarn", "x", "/")).toEqual({ command: "yarn", args: ["add", "x"] });
  });

  it("runs pnpm through npx, at the project's packageManager version, when pnpm is not on PATH", () => {
    const dir = makeTempDir("os");
    writeFiles(dir, { "package.json": JSON.stringify({ packageManager: "pnpm@9.15.4+sha512.abc" }) });
    process.env.PATH = "";
    expect(installCommand("pnpm", "x", dir)).toEqual({ command: "npx", args: ["--yes", "pnpm@9.15.4", "add", "x"] });
    expect(installCommand("pnpm", "x", makeTempDir("os"))).toEqual({ command: "npx", args: ["--yes", "pnpm@latest", "add", "x"] });
  });

  it("calls pnpm itself when it is on PATH", () => {
    const bin = makeTempDir("os");
    writeFiles(bin, { pnpm: "" });
    process.env.PATH = bin;
    expect(installCommand("pnpm", "x", "/")).toEqual({ command: "pnpm", args: ["add", "x"] });
  });
});

describe("package specs", () => {
  it.each([
    ["toolgate-plugin-x", "toolgate-plugin-x"],
    ["toolgate-plugin-x@^1.2.0", "toolgate-plugin-x"],
    ["@acme/toolgate-plugin-x", "@acme/toolgate-plugin-x"],
    ["@acme/toolgate-plugin-x@latest", "@acme/toolgate-plugin-x"],
    ["github:acme/toolgate-plugin-x", undefined],
  ])("%s installs %s", (spec, name) => {
    expect(packageNameOf(spec)).toBe(name);
  });

  it("reads a local folder's name from its package.json and passes it as an absolute file: spec", () => {
    const dir = makeTempDir("os");
    writeFiles(dir, { "package.json": JSON.stringify({ name: "toolgate-plugin-local" }) });
    expect(packageNameOf(dir)).toBe("toolgate-plugin-local");
    expect(packageNameOf(`file:${dir}`)).toBe("toolgate-plugin-local");
    expect(normalizeSpec(dir)).toBe(`file:${dir}`);
    expect(normalizeSpec("toolgate-plugin-x@1")).toBe("toolgate-plugin-x@1");
  });
});
