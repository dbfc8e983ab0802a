/**
 * Where the line may have put text the reader does not follow beyond the paths its commands name (issue #25):
 * a patch, an archive or a decoder fed by the line writes wherever its input says, so every file is unknown
 * after it; a copy of a folder the line wrote in leaves every path under its destinations unknown. The
 * evaluator notes each path the line may have written (`noted`), so the folders holding them and their
 * names are O(1) lookups, never a scan over the writes.
 */
export class UnknownPlaces {
  /** Whether the line may have written a path named (or under a folder named) as `isWatched` tells: a runner's configuration. */
  wroteWatched = false;

  /** `isWatched` picks the names (of files and of the folders above them, with their extension) that set `wroteWatched`. */
  constructor(readonly isWatched: (name: string, extension: string) => boolean) {}

  /** Why every file is unknown from here on, once a command wrote places it does not name. */
  #everywhere: string | undefined;
  /** Folders under which every path is unknown, with why, and why the first of them is. */
  readonly #folders = new Map<string, string>();
  #firstFolder: string | undefined;
  /** Every folder above a path the line may have written, and the last segment of each (most paths asked share none). */
  readonly #holding = new Set<string>();
  readonly #holdingNames = new Set<string>();
  /** The last segment of each path the line may have written, and the extension of each (`.mk`). */
  readonly #names = new Set<string>();
  readonly #extensions = new Set<string>();

  /** A path (absolute, normalised) the line may have written, and its last segment. */
  noted(key: string, name: string): void {
    if (!this.#names.has(name)) {
      this.#names.add(name);
      const dot = name.lastIndexOf(".");
      const extension = dot > 0 ? name.slice(dot) : "";
      if (extension !== "") this.#extensions.add(extension);
      if (!this.wroteWatched && this.isWatched(name, extension)) this.wroteWatched = true;
    }
    for (let slash = key.length - name.length - 1; slash > 0; slash = key.lastIndexOf("/", slash - 1)) {
      const folder = key.slice(0, slash);
      if (this.#holding.has(folder)) break;
      this.#holding.add(folder);
      const folderName = folder.slice(folder.lastIndexOf("/") + 1);
      this.#holdingNames.add(folderName);
      if (!this.wroteWatched && this.isWatched(folderName, "")) this.wroteWatched = true;
    }
  }

  /** Whether the line may have written a path under this folder. */
  holdsWritten(key: string): boolean {
    return this.#holding.has(key);
  }

  /**
   * False when `path` (as written, before it is made absolute) cannot be a folder holding a written path: its
   * last segment names no such folder. Asked first, as working out the absolute path costs more.
   */
  mayHoldWritten(path: string): boolean {
    if (this.#holding.size === 0) return false;
    let end = path.length;
    while (end > 1 && path.charCodeAt(end - 1) === 47) end--;
    const last = path.slice(path.lastIndexOf("/", end - 1) + 1, end);
    return last === "" || last === "." || last === ".." || path.charCodeAt(0) === 126 || this.#holdingNames.has(last);
  }

  /** Whether the line may have written a file of this name (anywhere), or of this extension. */
  mayHaveWrittenName(name: string): boolean {
    return this.#names.has(name);
  }

  mayHaveWrittenExtension(extension: string): boolean {
    return this.#extensions.has(extension);
  }

  leaveEverywhereUnknown(why: string): void {
    this.#everywhere ??= why;
  }

  leaveFolderUnknown(key: string, why: string): void {
    if (!this.#folders.has(key)) this.#folders.set(key, why);
    this.#firstFolder ??= why;
  }

  /** Why what the line left at `key` (a path it did not name) is unknown; undefined when it is as it was on disk. */
  whyUnknown(key: string): string | undefined {
    if (this.#everywhere !== undefined || this.#folders.size === 0) return this.#everywhere;
    for (let slash = key.lastIndexOf("/"); slash >= 0; slash = slash === 0 ? -1 : key.lastIndexOf("/", slash - 1)) {
      const why = this.#folders.get(slash === 0 ? "/" : key.slice(0, slash));
      if (why !== undefined) return why;
    }
    return this.#folders.get(key);
  }

  /** Why any configuration file may hold unknown text: every file is, or some folder is. */
  whyAnyUnknown(): string | undefined {
    return this.#everywhere ?? this.#firstFolder;
  }
}
