/** One file a patch touches, and the lines it takes out or puts in. */
export interface PatchedFile {
  readonly path: string;
  readonly changedLines: string[];
}

// Codex's apply_patch format, then a unified diff's headers. Leading spaces are tolerated, as apply_patch does.
const applyPatchHeader = /^\s*\*\*\* (?:Update|Add|Delete) File:\s*(.+?)\s*$/;
const applyPatchMove = /^\s*\*\*\* Move to:\s*(.+?)\s*$/;
const diffGitHeader = /^diff --git (?:"?a\/)?(.+?)"? (?:"?b\/)?(.+?)"?\s*$/;
const unifiedHeader = /^(?:---|\+\+\+) (?:"?[ab]\/)?(.+?)"?(?:\t.*)?\s*$/;
const renameHeader = /^(?:rename|copy) (?:from|to) (.+?)\s*$/;

/**
 * The files a patch text names, in either format: Codex's `*** Begin Patch` (`*** Update File:`,
 * `*** Add File:`, `*** Delete File:`, `*** Move to:`) or a unified / git diff (`diff --git`, `---`,
 * `+++`, `rename to`). Empty for text that is no patch. Each file comes with its `+`/`-` lines.
 */
export function patchedFiles(text: string): PatchedFile[] {
  if (!text.includes("*** ") && !text.includes("--- ") && !text.includes("diff --git")) return [];
  const files: PatchedFile[] = [];
  let current: PatchedFile | undefined;
  const open = (path: string) => {
    const clean = path.trim();
    if (clean === "" || clean === "/dev/null") return;
    current = { path: clean, changedLines: [] };
    files.push(current);
  };
  for (const line of text.split(/\r?\n/)) {
    const header = applyPatchHeader.exec(line) ?? applyPatchMove.exec(line) ?? renameHeader.exec(line) ?? unifiedHeader.exec(line);
    if (header) {
      open(header[1]!);
      continue;
    }
    const git = diffGitHeader.exec(line);
    if (git) {
      open(git[1]!);
      open(git[2]!);
      continue;
    }
    if (current && (line.startsWith("+") || line.startsWith("-"))) current.changedLines.push(line.slice(1));
  }
  return files;
}
