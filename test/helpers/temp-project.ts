import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const tmpRoot = join(dirname(fileURLToPath(import.meta.url)), "..", ".tmp");

export interface TempProject {
  dir: string;
  /** Writes files (path relative to the project → content) and returns the project. */
  write(files: Record<string, string>): TempProject;
  path(relative: string): string;
  remove(): void;
}

/**
 * A real project folder on disk, inside the repository (test/.tmp, git-ignored) so that plugin files
 * can import `@toolgate/plugin-sdk` through the workspace's node_modules.
 */
export function createTempProject(files: Record<string, string> = {}): TempProject {
  mkdirSync(tmpRoot, { recursive: true });
  const dir = mkdtempSync(join(tmpRoot, "project-"));
  const project: TempProject = {
    dir,
    write(more) {
      for (const [relative, content] of Object.entries(more)) {
        const path = join(dir, relative);
        mkdirSync(dirname(path), { recursive: true });
        writeFileSync(path, content);
      }
      return project;
    },
    path: (relative) => join(dir, relative),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
  return project.write(files);
}
