import { readFileSync } from "node:fs";
import { join } from "node:path";
import { packageRoot } from "../cli/package-root.js";

export interface Asset {
  type: string;
  body: Buffer;
}

/** The page's files, by URL path: a fixed list, so no request can name another file. */
const files: Record<string, [file: string, type: string]> = {
  "/": ["index.html", "text/html; charset=utf-8"],
  "/app.js": ["app.js", "text/javascript; charset=utf-8"],
  "/style.css": ["style.css", "text/css; charset=utf-8"],
};

/**
 * Read once at start from the package's ui/ folder: src/ui/ → ui/ from the sources, dist/cli/ → ui/ from
 * the bundle; `packageRoot` finds the package folder from either.
 */
export function loadAssets(dir = join(packageRoot(), "ui")): Map<string, Asset> {
  return new Map(Object.entries(files).map(([path, [file, type]]) => [path, { type, body: readFileSync(join(dir, file)) }]));
}
