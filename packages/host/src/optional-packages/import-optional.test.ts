import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { importOptional, MissingPackageError, type OptionalPackage } from "./import-optional.js";

const pkg: OptionalPackage = { name: "toolgate-test-optional", feature: "the test feature", install: "npm install toolgate-test-optional" };
const project = mkdtempSync(join(tmpdir(), "toolgate-optional-"));
afterAll(() => rmSync(project, { recursive: true, force: true }));

function notFound(): Promise<never> {
  return import(pkg.name) as Promise<never>;
}

describe("importOptional", () => {
  it("rejects with the install line when neither the host nor the project has the package", async () => {
    const error = await importOptional(pkg, project, notFound).catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(MissingPackageError);
    expect((error as Error).message).toBe(
      "the test feature need toolgate-test-optional, which is not installed: run `npm install toolgate-test-optional` in the project",
    );
  });

  it("finds the package in the project folder when the host cannot resolve it", async () => {
    const dir = join(project, "node_modules", pkg.name);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "package.json"), JSON.stringify({ name: pkg.name, type: "module", exports: { ".": { default: "./index.js" } } }));
    writeFileSync(join(dir, "index.js"), "export const found = 'from the project';\n");
    const module = await importOptional<{ found: string }>(pkg, project, notFound);
    expect(module.found).toBe("from the project");
  });

  it("passes on a failure other than not-found: a package that throws on import is not reported as missing", async () => {
    const broken = () => Promise.reject(Object.assign(new Error("boom inside the package"), { code: "ERR_SOMETHING" }));
    await expect(importOptional(pkg, project, broken)).rejects.toThrow("boom inside the package");
  });

  it("uses the host's own resolution first", async () => {
    const own = { found: "own" };
    await expect(importOptional(pkg, project, () => Promise.resolve(own))).resolves.toBe(own);
  });
});
