import { analyze, type Analysis, type Invocation } from "./invocations.js";
import { normalizePath } from "./normalize-path.js";
import type { AnalysisEnvironment } from "./shell-state.js";
import { readerVersion } from "./reader-version.js";

/** Where a call runs, as its consumers know it: the project, the user's home, the temp folder, and the call's own folder. */
export interface AnalysisPlace {
  /** The project's root (absolute): where a line starts when the call names no folder. */
  projectRoot: string;
  home: string;
  tmp: string;
  /** The call's working folder, absolute or relative to the project root; the project root when absent. */
  cwd?: string | undefined;
}

/**
 * The environment a shell line of a call is read in, built the same way by every consumer of one decision
 * (the guard, the permission rules, the policy protection), so that they read the line alike and share one
 * reading (`sharedAnalysis`). Frozen: a consumer cannot change what another one reads with.
 */
export function analysisEnvironment(place: AnalysisPlace): Readonly<AnalysisEnvironment> {
  const { projectRoot, home } = place;
  const cwd =
    place.cwd === undefined || place.cwd === ""
      ? projectRoot
      : place.cwd.startsWith("/")
        ? normalizePath(place.cwd)
        : normalizePath(`${projectRoot}/${place.cwd}`);
  // `TMPDIR=/tmp/` and `os.tmpdir()`'s `/tmp` are one folder.
  const tmp = place.tmp.length > 1 ? place.tmp.replace(/\/+$/, "") || "/" : place.tmp;
  return Object.freeze({ cwd, home, tmp, projectRoot });
}

// Every field of the environment, so that the memo's key holds them all: a field added to
// `AnalysisEnvironment` without its place here fails to compile.
const environmentFields = Object.keys({ cwd: true, home: true, tmp: true, projectRoot: true } satisfies Record<
  keyof AnalysisEnvironment,
  true
>) as (keyof AnalysisEnvironment)[];

interface Entry {
  readonly source: string;
  readonly environment: Readonly<AnalysisEnvironment>;
  readonly analysis: Analysis;
}

// One decision reads a line up to three times (guard, rules, protection), sometimes from a second folder: a few entries suffice.
const capacity = 4;

export { readerVersion } from "./reader-version.js";

// Kept on the process, not the module: the host loads each plugin with its own copy of this package (jiti, no
// module cache), and the guard plugin must find the reading the host's rules and protection made.
const storeKey = Symbol.for(`toolgate.shell.shared-analysis@${readerVersion}`);
const entries: Entry[] = ((globalThis as { [storeKey]?: Entry[] })[storeKey] ??= []);

function sameEnvironment(a: Readonly<AnalysisEnvironment>, b: Readonly<AnalysisEnvironment>): boolean {
  if (a === b) return true;
  for (let index = 0; index < environmentFields.length; index++) if (a[environmentFields[index]!] !== b[environmentFields[index]!]) return false;
  return true;
}

/**
 * `analyze(source, environment)`, read once for the consumers of one decision: the last few readings are
 * kept, keyed by the exact text and every field of the environment. The reading is frozen (`freezeReading`), so
 * one consumer cannot change what the next one sees; copy what you need to change.
 */
export function sharedAnalysis(source: string, environment: Readonly<AnalysisEnvironment>): Analysis {
  for (let index = 0; index < entries.length; index++) {
    const entry = entries[index]!;
    if (entry.source !== source || !sameEnvironment(entry.environment, environment)) continue;
    if (index > 0) {
      entries.splice(index, 1);
      entries.unshift(entry);
    }
    return entry.analysis;
  }
  // Every field named (a field added to `AnalysisEnvironment` and not here fails to compile): one shape for every key.
  const key = Object.freeze({
    cwd: environment.cwd,
    home: environment.home,
    tmp: environment.tmp,
    projectRoot: environment.projectRoot,
  } satisfies Record<keyof AnalysisEnvironment, unknown>) as Readonly<AnalysisEnvironment>;
  const analysis = freezeReading(analyze(source, key));
  entries.unshift({ source, environment: key, analysis });
  if (entries.length > capacity) entries.length = capacity;
  return analysis;
}

/**
 * Freezes a reading where a consumer could change what the next one sees: the reading, its lists, and each
 * command with its arguments, redirects and the commands it holds. (Not each word's own objects deeper down:
 * walking them all cost more than the reading itself.)
 */
function freezeReading(analysis: Analysis): Analysis {
  for (const list of [analysis.invocations, analysis.uncalled, analysis.unresolved]) for (const invocation of list) freezeInvocation(invocation);
  for (const list of [analysis.scripts, analysis.invocations, analysis.problems, analysis.uncalled, analysis.unresolved]) Object.freeze(list);
  return Object.freeze(analysis);
}

// One frozen empty list stands for every empty one in a reading: freezing a fresh array costs more than anything
// else this walk does, and most commands nest nothing, follow nothing in their pipeline, and redirect nothing.
const frozenEmpty: never[] = Object.freeze([]) as never[];

function frozenList<T>(list: T[]): T[] {
  return list.length === 0 ? frozenEmpty : (Object.freeze(list) as T[]);
}

// A frozen invocation has been walked: the mark costs no set of its own (commands are reached through `nested` and `upstream` too).
function freezeInvocation(invocation: Invocation): void {
  if (Object.isFrozen(invocation)) return;
  const { redirects, nested, upstream } = invocation;
  for (let index = 0; index < redirects.length; index++) Object.freeze(redirects[index]);
  invocation.redirects = frozenList(redirects);
  invocation.args = frozenList(invocation.args);
  invocation.nested = frozenList(nested);
  invocation.upstream = frozenList(upstream);
  Object.freeze(invocation);
  for (let index = 0; index < nested.length; index++) freezeInvocation(nested[index]!);
  for (let index = 0; index < upstream.length; index++) freezeInvocation(upstream[index]!);
}
