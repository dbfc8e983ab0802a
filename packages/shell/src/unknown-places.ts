/**
 * Where the line may have put text the reader does not follow beyond the paths its commands name (issue #25):
 * a patch, an archive or a decoder fed by the line writes wherever its input says, so every file is unknown
 * after it; a copy of a folder the line wrote in leaves every path under its destinations unknown. The
 * evaluator notes each path the line may have written (`noted`), so the folders holding them and their
 * names are O(1) lookups, never a scan over the writes.
 */
export class UnknownPlaces {
  /** Why every file is unknown from here on, once a command wrote places it does not name. */
  #everywhere: string | undefined;
  /** Folders under which every path is unknown, with why. */
  readonly #folders = new Map<string, string>();
  /** Every folder above a path the line may have written. */
  readonly #holding = new Set<string>();
  /** The last segment of each path the line may have written, and the extension of each (`.mk`). */
  readonly #names = new Set<string>();
  readonly #extensions = new Set<string>();

  /** A path (absolute, normalised) the line may have written. */
  noted(key: string): void {
    const name = key.slice(key.lastIndexOf("/") + 1);
    this.#names.add(name);
    const dot = name.lastIndexOf(".");
    if (dot > 0) this.#extensions.add(name.slice(dot));
    for (let slash = key.lastIndexOf("/"); slash > 0; slash = key.lastIndexOf("/", slash - 1)) {
      const folder = key.slice(0, slash);
      if (this.#holding.has(folder)) break;
      this.#holding.add(folder);
    }
  }

  /** Whether the line may have written a path under this folder. */
  holdsWritten(key: string): boolean {
    return this.#holding.has(key);
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
    return this.#everywhere ?? this.#folders.values().next().value;
  }
}
