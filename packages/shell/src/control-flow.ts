/**
 * The branches and loops of a script. The parser reads `if`, `while`, `case`, … as words (`if a; then b; fi`
 * is the pipelines `if a`, `then b`, `fi`); this module groups those pipelines into the constructs bash
 * runs, so the reader can join the state over every branch instead of letting the last write win.
 */
import { connectorBefore, type Command, type Pipeline, type Script } from "./parse.js";

/** A sequence of steps, run one after the other. */
export type Flow = Step[];

export type Step = PipelineStep | ChainStep | IfStep | LoopStep | CaseStep;

/** A pipeline run as it is (the keyword pipelines `then b`, `do c` are run too: their words are commands). */
export interface PipelineStep {
  kind: "pipeline";
  pipeline: Pipeline;
}

/** `a && b || c`: every step after the first runs only when the one before it succeeded (`&&`) or failed (`||`). */
export interface ChainStep {
  kind: "chain";
  first: Step;
  rest: { operator: "&&" | "||"; step: Step }[];
}

/** A compound command; `subshell` when it is part of a pipeline (`x | while …; done`), so its state does not last. */
interface Compound {
  subshell: boolean;
  /** The pipeline that closes it (`done > out`, `fi | sort`): run after it, its words are commands too. */
  closer: Pipeline | undefined;
}

/** `if c1; then b1; elif c2; then b2; else b3; fi`. */
export interface IfStep extends Compound {
  kind: "if";
  clauses: { condition: Flow; body: Flow }[];
  otherwise: Flow | undefined;
}

/** `while c; do b; done`, `until`, `for x in …; do b; done`, `select`: the head, then the body, any number of times. */
export interface LoopStep extends Compound {
  kind: "loop";
  head: Flow;
  body: Flow;
}

/** `case w in a) …;; b) …;& esac`: at most one arm from the start, or the next after `;&` / `;;&`. */
export interface CaseStep extends Compound {
  kind: "case";
  head: Flow;
  arms: { fallsThrough: boolean; body: Flow }[];
}

export interface FlowResult {
  flow: Flow;
  /** Why bash would refuse the script (`then` without `if`, a loop never closed), when it would. */
  problem?: string;
}

const openers = new Set(["if", "while", "until", "for", "select", "case"]);
const reserved = new Set([...openers, "then", "elif", "else", "fi", "do", "done", "esac"]);
const closerOf: Record<string, string> = { if: "fi", while: "done", until: "done", for: "done", select: "done", case: "esac" };
const maxNesting = 64;
// The words that end each list, made once (a hostile line opens thousands of constructs).
const endsNothing: ReadonlySet<string> = new Set();
const endsHead: ReadonlySet<string> = new Set(["do"]);
const endsLoop: ReadonlySet<string> = new Set(["done"]);
const endsCondition: ReadonlySet<string> = new Set(["then"]);
const endsClause: ReadonlySet<string> = new Set(["elif", "else", "fi"]);
const endsElse: ReadonlySet<string> = new Set(["fi"]);
const endsCase: ReadonlySet<string> = new Set(["esac"]);

/**
 * The constructs of a script. Read anew on each call, never kept: a module-level WeakMap keyed by the parsed
 * scripts made every decision's scripts ephemerons that each minor garbage collection had to trace (it cost
 * more than reading the flow again, which is linear in the pipelines and cheaper than analysing them).
 */
export function readFlow(script: Script): FlowResult {
  const reader = new FlowReader(script);
  const flow = reader.list(endsNothing, 0, false);
  return reader.problem === undefined ? { flow } : { flow, problem: reader.problem };
}

/**
 * The reserved word a command starts with (after `!` and `time`), when it is written plainly; with `skip`,
 * the one after that many reserved words (`do if …`: the `if` after the loop's own `do`).
 */
function keywordOf(command: Command | undefined, skip = 0): string | undefined {
  if (command?.type !== "simple") return undefined;
  let skipped = 0;
  for (const word of command.words) {
    if (word.plain !== true) return undefined;
    if (word.text === "!" || word.text === "time" || word.text === "-p") continue;
    if (!reserved.has(word.text)) return undefined;
    if (skipped++ === skip) return word.text;
  }
  return undefined;
}

/** True when a case arm ends before this pipeline (`;;`, `;&`, `;;&`). */
function endsArm(pipeline: Pipeline): boolean {
  const connector = connectorBefore(pipeline);
  return connector.includes(";;") || connector.includes(";&");
}

class FlowReader {
  position = 0;
  depth = 0;
  problem: string | undefined;

  constructor(readonly pipelines: Script) {}

  /**
   * Steps up to a pipeline that starts with one of `terminators` (left for the caller) or, in a case arm,
   * up to the next arm. `own`: how many reserved words at the start of the first pipeline belong to the
   * constructs being read (`do if c` read as the `if`'s condition: 2).
   */
  list(terminators: ReadonlySet<string>, own: number, arm: boolean): Flow {
    const flow: Flow = [];
    const start = this.position;
    while (this.position < this.pipelines.length) {
      const pipeline = this.pipelines[this.position]!;
      const first = this.position === start;
      const keyword = first && own > 0 ? undefined : keywordOf(pipeline[0]);
      if (keyword !== undefined && terminators.has(keyword)) return flow;
      if (arm && !first && endsArm(pipeline)) return flow;
      if (keyword !== undefined && !openers.has(keyword)) this.problem ??= `"${keyword}" where bash does not expect it`;
      flow.push(this.chain(first ? own : 0));
    }
    return flow;
  }

  chain(own: number): Step {
    const first = this.unit(own);
    const rest: ChainStep["rest"] = [];
    while (this.position < this.pipelines.length) {
      const next = this.pipelines[this.position]!;
      const connector = connectorBefore(next);
      const operator = connector.startsWith("&&") ? "&&" : connector.startsWith("||") ? "||" : undefined;
      if (operator === undefined) break;
      const keyword = keywordOf(next[0]);
      if (keyword !== undefined && !openers.has(keyword)) break;
      rest.push({ operator, step: this.unit(0) });
    }
    return rest.length === 0 ? first : { kind: "chain", first, rest };
  }

  /** One pipeline, or the construct that starts with it. */
  unit(own: number): Step {
    const pipeline = this.pipelines[this.position]!;
    // `if c`, and `then if …`, `do for …`, `else while …`: a construct opens after the keywords already read.
    const keyword = keywordOf(pipeline[0], own);
    if (keyword !== undefined && openers.has(keyword)) return this.compound(keyword, own + 1, false);
    // `x | while read l; do …; done`: the loop is the pipeline's last part, run in a subshell.
    const last = own === 0 && pipeline.length > 1 ? keywordOf(pipeline[pipeline.length - 1]) : undefined;
    if (last !== undefined && openers.has(last)) return this.compound(last, 1, true);
    this.position++;
    return { kind: "pipeline", pipeline };
  }

  compound(opener: string, own: number, subshell: boolean): Step {
    // Deeper constructs are read as plain pipelines, so hostile input cannot exhaust the stack; bash is not followed there.
    if (++this.depth > maxNesting) {
      this.problem ??= `constructs are nested more than ${maxNesting} levels deep`;
      this.depth--;
      return { kind: "pipeline", pipeline: this.pipelines[this.position++]! };
    }
    let step: Step;
    if (opener === "if") step = this.ifStep(own, subshell);
    else if (opener === "case") step = this.caseStep(subshell);
    else {
      const head = this.list(endsHead, own, false);
      const body = this.expect("do", opener) ? this.list(endsLoop, 1, false) : [];
      step = { kind: "loop", head, body, ...this.close(opener, subshell) };
    }
    this.depth--;
    return step;
  }

  ifStep(own: number, subshell: boolean): IfStep {
    const clauses: IfStep["clauses"] = [];
    let otherwise: Flow | undefined;
    for (let opening = own; ; opening = 1) {
      const condition = this.list(endsCondition, opening, false);
      if (!this.expect("then", "if")) break;
      clauses.push({ condition, body: this.list(endsClause, 1, false) });
      const keyword = keywordOf(this.pipelines[this.position]?.[0]);
      if (keyword === "else") otherwise = this.list(endsElse, 1, false);
      if (keyword !== "elif") break;
    }
    return { kind: "if", clauses, otherwise, ...this.close("if", subshell) };
  }

  caseStep(subshell: boolean): CaseStep {
    // `case w in a) …`: the first pattern is in the head's words; the arms follow.
    const head: Flow = [{ kind: "pipeline", pipeline: this.pipelines[this.position++]! }];
    const arms: CaseStep["arms"] = [];
    while (this.position < this.pipelines.length && keywordOf(this.pipelines[this.position]![0]) !== "esac") {
      const fallsThrough = arms.length > 0 && connectorBefore(this.pipelines[this.position]!).includes(";&");
      const body = this.list(endsCase, 0, true);
      arms.push({ fallsThrough, body });
    }
    return { kind: "case", head, arms, ...this.close("case", subshell) };
  }

  /** Whether the next pipeline starts with `keyword`; a problem when it does not. */
  expect(keyword: string, construct: string): boolean {
    if (keywordOf(this.pipelines[this.position]?.[0]) === keyword) return true;
    this.problem ??= `"${construct}" without its "${keyword}"`;
    return false;
  }

  close(opener: string, subshell: boolean): Compound {
    const closer = closerOf[opener]!;
    const pipeline = this.pipelines[this.position];
    if (keywordOf(pipeline?.[0]) !== closer) {
      this.problem ??= `"${opener}" is never closed with "${closer}"`;
      return { subshell, closer: undefined };
    }
    this.position++;
    // `… done | sort`: the loop's output is piped, so it ran in a subshell.
    return { subshell: subshell || pipeline!.length > 1, closer: pipeline };
  }
}
