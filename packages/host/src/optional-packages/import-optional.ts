import { createRequire } from "node:module";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

/** A feature that lives in a package of its own, installed by the projects that use it. */
export interface OptionalPackage {
  readonly name: string;
  /** What needs it, as an error message names it: `model hooks (type: "model")`. */
  readonly feature: string;
  /** The command that installs it, with what it needs beside it. */
  readonly install: string;
}

export const modelHooksPackage: OptionalPackage = {
  name: "@toolgate/model-hooks",
  feature: 'model hooks (type: "model")',
  install: "npm install @toolgate/model-hooks ai",
};

export const cedarPackage: OptionalPackage = {
  name: "@toolgate/cedar",
  feature: 'Cedar policies (type: "cedar")',
  install: "npm install @toolgate/cedar",
};

export const celPackage: OptionalPackage = {
  name: "@toolgate/cel",
  feature: 'CEL policies (type: "cel")',
  install: "npm install @toolgate/cel",
};

export const storeRedisPackage: OptionalPackage = {
  name: "@toolgate/store-redis",
  feature: 'the Redis store (store: "redis://…")',
  install: "npm install @toolgate/store-redis",
};

export const sandboxPackage: OptionalPackage = {
  name: "@toolgate/sandbox",
  feature: "contained shell calls",
  install: "npm install @toolgate/sandbox",
};

/** The package is not installed where the host or the project can find it. */
export class MissingPackageError extends Error {
  override name = "MissingPackageError";
  constructor(readonly pkg: OptionalPackage) {
    super(`${pkg.feature} need ${pkg.name}, which is not installed: run \`${pkg.install}\` in the project`);
  }
}

/**
 * Imports an optional package: first as the host itself resolves it (npm's flat node_modules, an
 * optional peer pnpm linked), then from the project folder (`projectDir`, where the config lives), the
 * way a project's own dependencies resolve. Rejects with a `MissingPackageError` when neither finds it;
 * any other failure (the package is there but throws on import) rejects as it is.
 */
export async function importOptional<T>(pkg: OptionalPackage, projectDir: string, importOwn: () => Promise<T>): Promise<T> {
  try {
    return await importOwn();
  } catch (error) {
    if (!isNotFound(error, pkg.name)) throw error;
  }
  let resolved: string;
  try {
    resolved = createRequire(join(projectDir, "package.json")).resolve(pkg.name);
  } catch {
    throw new MissingPackageError(pkg);
  }
  return (await import(pathToFileURL(resolved).href)) as T;
}

function isNotFound(error: unknown, name: string): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : "";
  return (code === "ERR_MODULE_NOT_FOUND" || code === "MODULE_NOT_FOUND") && message.includes(name);
}
