import type { ClassifiedTarget, PathContext } from "../paths.js";
import { unknownText, type Analysis, type Invocation } from "@toolgate/shell";

/** Rule groups. `core` and `git` are on by default; the others are turned on with the `packs` option. */
export const packNames = ["core", "git", "databases", "containers", "kubernetes", "cloud", "terraform"] as const;
export type PackName = (typeof packNames)[number];
export const optInPacks: readonly PackName[] = ["databases", "containers", "kubernetes", "cloud", "terraform"];

/** A rule: an id to name it in `disable` and in explain, and the check. */
export interface Rule {
  id: string;
  pack: PackName;
  /** Catastrophic rules cannot be disabled. */
  catastrophic?: boolean;
  /** What the rule refuses, in a few words (README, explain). */
  summary: string;
  /** The message for the model when the command breaks the rule: what was dangerous and what to do instead. */
  check(facts: Facts): string | undefined;
}

/** One recursive delete and where it lands. */
export interface Delete {
  invocation: Invocation;
  target: ClassifiedTarget;
  /** Deletes without asking (`-f`, `find -delete`, `shutil.rmtree`). */
  force: boolean;
}

export interface Facts {
  analysis: Analysis;
  deletes: readonly Delete[];
  context: PathContext;
  /** The invocations of these commands, in source order: rules look only at the commands they know. */
  named(names: readonly string[]): readonly Invocation[];
  /**
   * The invocations whose name passes `test` (asked once per distinct name of the line, so `test` must
   * depend on the name only), with, when `redirecting`, every invocation that has a redirect: in source
   * order. A rule that looks at every command asks this with the test it makes first, and meets only the
   * commands it can match.
   */
  where(test: (name: string) => boolean, redirecting?: boolean): readonly Invocation[];
  /**
   * What several rules derive from the same facts, kept for this decision only (a module-level WeakMap keyed
   * by the analysis would keep every decision's objects alive through minor garbage collections).
   */
  shared: Map<string, unknown>;
}

const none: readonly Invocation[] = Object.freeze([]);

// Each list of names a rule asks with, as a set: the lists are the rules' own constants, kept as long as they are.
const nameSets = new WeakMap<readonly string[], ReadonlySet<string>>();

function setOf(names: readonly string[]): ReadonlySet<string> {
  let set = nameSets.get(names);
  if (set === undefined) {
    set = new Set(names);
    nameSets.set(names, set);
  }
  return set;
}

/** `Facts.named` and `Facts.where` over an analysis: an index by command name, built once per decision. */
export function indexByName(invocations: readonly Invocation[]): Pick<Facts, "named" | "where"> {
  // Each name's place in `distinct` and `lists`.
  const byName = new Map<string, number>();
  // The names the line runs, each once, beside their invocations: a line runs far fewer names than rules ask about.
  const distinct: string[] = [];
  const lists: Invocation[][] = [];
  // For each invocation, where its name is in `distinct`.
  const slots: number[] = [];
  // Indexed: a reading's lists are frozen, and a for-of over a frozen array makes an iterator each time.
  for (let index = 0; index < invocations.length; index++) {
    const invocation = invocations[index]!;
    let slot = byName.get(invocation.name);
    if (slot === undefined) {
      slot = distinct.length;
      byName.set(invocation.name, slot);
      distinct.push(invocation.name);
      lists.push([]);
    }
    lists[slot]!.push(invocation);
    slots.push(slot);
  }
  const where: Facts["where"] = (test, redirecting = false) => {
    const passes: boolean[] = [];
    let any = redirecting;
    for (let slot = 0; slot < distinct.length; slot++) {
      const passed = test(distinct[slot]!);
      passes.push(passed);
      any ||= passed;
    }
    if (!any) return none;
    const found: Invocation[] = [];
    for (let index = 0; index < invocations.length; index++) {
      const invocation = invocations[index]!;
      if (passes[slots[index]!] === true || (redirecting && invocation.redirects.length > 0)) found.push(invocation);
    }
    return found;
  };
  return { named: namedIn(invocations, distinct, lists), where };
}

function namedIn(invocations: readonly Invocation[], distinct: readonly string[], lists: readonly Invocation[][]): Facts["named"] {
  // Worked out on each ask, not kept: a line runs a few names, so an answer costs less than a map of answers would.
  return (names) => {
    const wanted = setOf(names);
    let found: readonly Invocation[] = none;
    let matched = 0;
    for (let index = 0; index < distinct.length; index++) {
      if (!wanted.has(distinct[index]!)) continue;
      matched++;
      found = lists[index]!;
    }
    if (matched < 2) return found;
    // Invocations of several of the names: read them in source order, as they are in the analysis (indexed: the list is frozen).
    const several: Invocation[] = [];
    for (let index = 0; index < invocations.length; index++) if (wanted.has(invocations[index]!.name)) several.push(invocations[index]!);
    return several;
  };
}

/**
 * `list.slice(start)` written out. A shared reading's lists are frozen, and on a frozen array V8's built-in
 * `slice` (like `filter`, `some`, `find`, `indexOf`, `join`) leaves its fast path: many times slower than this loop.
 */
export function copyFrom<T>(list: readonly T[], start: number): T[] {
  const copied = new Array<T>(Math.max(list.length - start, 0));
  for (let index = start; index < list.length; index++) copied[index - start] = list[index]!;
  return copied;
}

/** The first message `check` gives for an invocation, in source order. */
export function firstMessage(invocations: readonly Invocation[], check: (invocation: Invocation) => string | undefined): string | undefined {
  for (let index = 0; index < invocations.length; index++) {
    const message = check(invocations[index]!);
    if (message !== undefined) return message;
  }
  return undefined;
}

/** The command as the model wrote it, short enough for a message. */
export function show(invocation: Invocation): string {
  const text = invocation.text.replace(/\s+/g, " ").replaceAll(unknownText, "⟨unknown⟩").trim();
  const shown = text.length > 100 ? `${text.slice(0, 97)}…` : text;
  const via = invocation.via.length === 0 ? "" : ` (inside ${invocation.via.join(" → ")})`;
  return `\`${shown}\`${via}`;
}

/** Whether a short flag letter appears in any `-abc` cluster, or a long flag (`--force`, `--force=…`) is given, before `--`. */
export function hasFlag(args: readonly string[], short: string | undefined, ...long: string[]): boolean {
  for (const arg of args) {
    if (arg === "--") return false;
    if (arg.startsWith("--")) {
      if (long.some((flag) => arg === flag || arg.startsWith(`${flag}=`))) return true;
    } else if (short !== undefined && arg.startsWith("-") && arg.length > 1 && /^-[A-Za-z0-9]+$/.test(arg) && arg.includes(short)) {
      return true;
    }
  }
  return false;
}

/** The words that are not options (a `--` ends options); `valued` options take the next word as their value. */
export function positionals(args: readonly string[], valued: readonly string[] = []): string[] {
  const result: string[] = [];
  let options = true;
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    if (options && arg === "--") options = false;
    else if (options && valued.includes(arg)) index++;
    else if (!options || !arg.startsWith("-") || arg === "-") result.push(arg);
  }
  return result;
}
