import {
  assign,
  assignBoth,
  changeDirectory,
  copy,
  emptyState,
  expand,
  join,
  replace,
  sameState,
  widen,
  maxVariants,
  mayExpandText,
  setPositional,
  setVar,
  valuesOf,
  lookupIn,
  type AnalysisEnvironment,
  type ShellState,
} from "./shell-state.js";
import { knownInputs, staticInput, staticOutput, stdinTexts } from "./static-text.js";
import { gitWords } from "./git-alias.js";
import { linksMadeBy, throughLinks } from "./symlinks.js";
import { parseProgram } from "./open-at-end.js";
import { normalizePath } from "./normalize-path.js";
import { transformNames, transformText } from "./transforms.js";
import { analyzeInterpreter, interpreterEffects, type CodeWrite } from "./interpreters.js";
import { heredocSubstitutions } from "./lex.js";
import { UnknownPlaces } from "./unknown-places.js";
import { rewritesWorkTree, writesUnnamedPlaces } from "./unnamed-writers.js";
import { configsRunBy, isConfigName, namesItsConfig, type ConfigFiles } from "./config-runners.js";
import { connectorBefore, parseScript, type Command, type FunctionCommand, type Pipeline, type Redirect, type Script, type Word } from "./parse.js";
import { inputWrappers, isAssignment, parallelJobsOf, unwrap } from "./unwrap.js";
import { parallelScripts } from "./parallel.js";
import { codeRoleOf, namesSetBy, optionsLoadCode, promptSubstitutions, type CodeRole } from "./code-variables.js";
import { readFlow, type CaseStep, type Flow, type IfStep, type LoopStep, type Step } from "./control-flow.js";
import { readRunners } from "./runners/index.js";
import { commandAssigned, commandProblems, wordExpansionProblems } from "./code-in-expansions.js";
import { asLiteral, fromLiteral } from "./quoted.js";
import { echoOutput } from "./printf.js";
import { isUnknown, unknownText } from "./unknown.js";
import type { ExpansionScope } from "./expansion.js";

/** One command that would run, seen through wrappers (`sudo`, `env`, `xargs`, …). */
export interface Invocation {
  /** The command's name without its folder (`rm` for `/bin/rm`); empty for a bare assignment. */
  name: string;
  /** The arguments after the name, quotes removed, known variables expanded. */
  args: string[];
  /** The wrappers it runs under, outermost first: `["sudo", "env"]` for `sudo env A=1 rm …`. */
  wrappers: readonly string[];
  redirects: Redirect[];
  /** Every command piped into this one, from earlier in its pipeline. */
  upstream: Invocation[];
  /** Commands this one runs: `$(…)` and `<(…)` in its words, `sh -c '…'`, `eval …`, `find -exec`, one-liners. */
  nested: Invocation[];
  /** The shell's folder when it runs; undefined after a `cd` to a place that cannot be known. */
  cwd: string | undefined;
  /** How it is reached, outermost first: `[]` on the command line, `["bash -c", "$(…)"]` deeper. */
  via: readonly string[];
  /** More operands arrive at run time: from standard input (xargs, parallel), or `{}` is find's results. */
  input: "stdin" | "find" | undefined;
  /** With `input: "stdin"`: the text replaced by each input (`xargs -I FOO`), when there is one. */
  placeholder?: string;
  /** With `input: "stdin"`: the input is read from a file (`xargs -a paths.txt`), not from the pipe. */
  inputFromFile?: true;
  /** The command as it reads, for messages (an interpreter's delete call for synthesized deletes). */
  text: string;
  /** `NAME=value` words before the command (`GIT_SSH_COMMAND=… git fetch`), after those exported earlier in the line. */
  assignments: readonly string[];
}

/** What the expansions of one command's words hold: the scope they were read in, the names `${x:=…}` leaves unknown. */
interface ExpansionScan {
  scope: ExpansionScope | undefined;
  assigned: string[] | undefined;
}

/** An invocation whose `text` is joined from its words only when a message or explain asks for it. */
class RecordedInvocation implements Invocation {
  nested: Invocation[] = [];
  input: Invocation["input"] = undefined;
  placeholder?: string;
  inputFromFile?: true;
  #text: string | undefined;

  constructor(
    readonly argv: readonly string[],
    readonly name: string,
    readonly args: string[],
    readonly wrappers: readonly string[],
    readonly assignments: readonly string[],
    public redirects: Redirect[],
    readonly upstream: Invocation[],
    readonly cwd: string | undefined,
    readonly via: readonly string[],
  ) {}

  get text(): string {
    this.#text ??= this.argv.join(" ");
    return this.#text;
  }

  set text(text: string) {
    // A shared reading is frozen (shared-analysis.ts): its text is as fixed as its other fields.
    if (Object.isFrozen(this)) throw new TypeError("Cannot assign to read only property 'text' of a shared reading");
    this.#text = text;
  }
}

/** What a command line would run. */
export interface Analysis {
  source: string;
  /** The command line and every script nested in it (`sh -c '…'`, `$(…)`, heredocs to a shell, …). */
  scripts: string[];
  /** Every command it would run, nested ones included, in source order. */
  invocations: Invocation[];
  /** Why the line (or a script in it) cannot be read with confidence; empty when it can. */
  problems: string[];
  /** What the bodies of functions defined but never called would run: only catastrophic deletes count there. */
  uncalled: Invocation[];
  /**
   * Commands whose name is only known at run time (`$CMD -rf /`, `"$(cat cmd.txt)" x`, `/bin/r? x`): what they
   * run cannot be checked. `$EDITOR`, `$VISUAL`, `$PAGER` and `$SHELL` are the user's own tools, not listed.
   */
  unresolved: Invocation[];
}

// Shells whose language differs from bash's (dash, ash and busybox sh read a subset of it, and are read as bash).
const foreignShells = new Set([
  "zsh",
  "fish",
  "csh",
  "tcsh",
  "ksh",
  "ksh93",
  "mksh",
  "pdksh",
  "oksh",
  "yash",
  "pwsh",
  "powershell",
  "nu",
  "nushell",
  "xonsh",
  "elvish",
  "ion",
  "osh",
  "ysh",
  "oil",
  "rc",
  "es",
  "murex",
  "scsh",
]);
export const shells = new Set(["sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "csh", "tcsh", "yash", "posh", "rbash"]);
const maxDepth = 8;
const declarations = new Set(["export", "declare", "local", "readonly", "typeset"]);
const sameShell = new Set(["eval", "source", "."]);
// Builtins that set variables or hold arithmetic: what `codeAssignments` reads besides `NAME=value` words.
const settingCommands = new Set([...declarations, "trap", "let", "[[", "read", "mapfile", "readarray", "printf", "getopts", "for", "select"]);
// What may stand before `eval` or `source` and leave them in this shell (`command eval`, `then source f`).
const sameShellWrappers = new Set(["command", "builtin", "time", "!", "{", "then", "else", "elif", "do", "if", "while", "until"]);
const runsScripts = new Set(["eval", "source", ".", "su", "script", "runuser", "watch", "parallel"]);

/** A shell, or a name only known at run time (`$SHELL`): it may be a shell, so its `-c` script is read too. */
function isShell(name: string): boolean {
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the shell's own `${SHELL}`, as written in a command
  return shells.has(name) || name === "$shell" || name === "${shell}" || isUnknown(name);
}

/** The index of the first word after options, skipping the values of `valued` options. */
function skipValuedOptions(args: readonly string[], valued: readonly string[]): number {
  let index = 0;
  while (index < args.length && args[index]!.startsWith("-")) {
    if (args[index] === "--") return index + 1;
    index += valued.includes(args[index]!) ? 2 : 1;
  }
  return index;
}
const interpreterNames = /^(python[\d.]*|pypy\d*|node|nodejs|bun|deno|tsx|ts-node|esno|esrun|ruby|perl|php|awk|gawk|mawk|nawk)$/;
const fixedInterpreterNames = new Set([
  "node",
  "nodejs",
  "bun",
  "deno",
  "tsx",
  "ts-node",
  "esno",
  "esrun",
  "ruby",
  "perl",
  "php",
  "awk",
  "gawk",
  "mawk",
  "nawk",
]);

// Every name `runs` may find more behind, but python-like ones (`p…`): one lookup turns most commands away.
// biome-ignore lint/suspicious/noTemplateCurlyInString: the shell's own `${SHELL}`, as written in a command
const mayRunMore = new Set([...fixedInterpreterNames, "find", "git", ...runsScripts, ...shells, "$shell", "${shell}"]);

/** `interpreterNames.test(name)`, with the regex only for the names that start like python or pypy. */
function isInterpreter(name: string): boolean {
  return fixedInterpreterNames.has(name) || (name.charCodeAt(0) === 112 && interpreterNames.test(name));
}
// A command worth finding, where a shell would read a command: interpreter code with none is not read as shell.
const commandWorthFinding = String.raw`\s*(?:sudo\s+)?(?:rm|git|dd|mkfs[.\w]*|wipefs|shred|chmod|chown|mv|find|sudo|doas|curl|wget|sh|bash|zsh|eval|xargs|psql|mysql|docker|kubectl|aws|gcloud|az|terraform)\s`;
// At the start, or after a separator: two patterns, as one that may match at `^` is slower to scan a long text with.
const shellWordsAtStart = new RegExp(`^${commandWorthFinding}`);
const shellWordsAfterSeparator = new RegExp(`[;&|\`(\n]${commandWorthFinding}`);

function hasShellWords(code: string): boolean {
  return shellWordsAtStart.test(code) || shellWordsAfterSeparator.test(code);
}
// What `staticOutput` knows how to read; other substitutions are not parsed a second time.
const printsText = /^\s*(echo|printf|cat|tr|rev|tac|sed)\b/;
// Options that give an interpreter its code on the command line (then a file operand is data, not the program).
const codeFlags = /^(-[A-Za-z]*[ceErmp]|--eval|--print|--command)$/;
const positionalNames = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "@", "*", "#"];
const emptyScript = /^\s*(?:true|:)?\s*$/;
const locatesProgram = /^\s*(?:which|command\s+-v|type\s+-P)\s+([\w.+-]+)\s*$/;
const maxKnownOutputs = 16;
const makesTemp = /^\s*mktemp(?:\s+(?:-[dqu]+|--directory|--quiet|--dry-run|--tmpdir))*\s*$/;
// Commands whose words `commandProblems` reads (arithmetic, name references, parser options).
const mayEvaluate = new Set([
  "((",
  "let",
  "for",
  "[[",
  "[",
  "test",
  "declare",
  "typeset",
  "local",
  "readonly",
  "export",
  "set",
  "shopt",
  "printf",
  "read",
  "mapfile",
  "readarray",
  "unset",
  "getopts",
  "wait",
  "hash",
  "enable",
  "compgen",
]);
const printsFolder = /^\s*pwd(?:\s+-L)?\s*$/;
const printsTopLevel = /^\s*git\s+rev-parse\s+--show-toplevel\s*$/;
const maxInvocations = 5_000;
// Passes a loop body is read ahead before what still changes becomes unknown (as many again to settle after that).
const maxLoopPasses = 3;

/** Where the writes stood before code that may not run (`writes.length` then); undefined: not taken. */
type FilesBefore = number | undefined;

interface LoopFrame {
  breaks: ShellState[];
  continues: ShellState[];
}

interface LoopPass {
  frame: LoopFrame;
  iteration: ShellState;
  afterHead: ShellState;
}
const maxTraps = 32;
// Commands read in all, dry passes over loop bodies included.
const maxWork = 4 * maxInvocations;
// Shared by every command first in its pipeline: never written to.
const noUpstream: Invocation[] = [];

export function analyze(source: string, environment: AnalysisEnvironment): Analysis {
  const analysis: Analysis = { source, scripts: [], invocations: [], problems: [], uncalled: [], unresolved: [] };
  const collector = new Collector(analysis, environment);
  collector.source(source, 0, emptyState(environment.cwd), [], []);
  collector.trapBodies();
  collector.uncalledFunctions();
  // Programs that run code through their options, scripts or environment: read after the line, one level deeper.
  readRunners(analysis, (invocation, script, how) => {
    collector.runner = invocation;
    collector.source(script, invocation.via.length + 1, emptyState(invocation.cwd), [...invocation.via, how], invocation.nested);
    collector.runner = undefined;
  });
  return analysis;
}

// Reserved words that may stand before a command in the same simple command (`then x=1`, `do cd ~`).
const bodyKeywords = new Set(["then", "else", "elif", "do", "if", "while", "until", "!"]);

// Words a function call may follow and still be the shell's own call (`then f`, `! f`, `time f`).
const callerKeywords = new Set(["then", "else", "elif", "do", "if", "while", "until", "{", "!", "time"]);

/**
 * The function an argv calls, if any. Only the shell calls functions: behind a wrapper (`sudo f`, `xargs f`,
 * `X=1 time f`, where `time` is the program, not the keyword) the name is a program's, not the function's.
 */
function calledFunction(argv: readonly string[], functions: ReadonlyMap<string, readonly FunctionCommand[]>): readonly FunctionCommand[] | undefined {
  let index = 0;
  let assigned = false;
  while (index < argv.length) {
    const word = argv[index]!;
    if (isAssignment(word)) assigned = true;
    else if (!callerKeywords.has(word) || (assigned && (word === "!" || word === "time"))) break;
    else if (word === "time" && argv[index + 1] === "-p") index++;
    index++;
  }
  const name = argv[index];
  return name === undefined ? undefined : functions.get(name);
}

class Collector {
  staticDepth = 0;
  /** Function definitions in the order read, and those some command called. */
  readonly defined: FunctionCommand[] = [];
  readonly called = new Set<FunctionCommand>();
  /** Functions being expanded right now: a recursive call is not expanded again. */
  readonly calling = new Set<FunctionCommand>();
  /** True while reading uncalled functions: their commands go to `analysis.uncalled`. */
  dormant = false;
  /**
   * Above 0 while a loop's body is read ahead to learn the values its variables take on later passes:
   * nothing read then is recorded (the pass that records comes after, with every value known).
   */
  dry = 0;
  /** Commands read in all, dry passes included: what bounds the work a hostile nest of loops can cause. */
  work = 0;
  /** The states at each `break` and `continue` of the loops being read, innermost last. */
  readonly loops: LoopFrame[] = [];
  /** The states at each `return` of the function calls being read, innermost last. */
  readonly returns: ShellState[][] = [];
  /** The state each function being called started with: a recursive call that sees another state is not followed. */
  readonly entries = new Map<FunctionCommand, ShellState>();
  /** `trap '…' EXIT` bodies: run later, so they are read at the end with every state they may see from their `trap` on. */
  readonly traps: { body: string; state: ShellState; via: readonly string[] }[] = [];
  /** Names declared integers (`declare -i x`) anywhere on the line: what is assigned to them is arithmetic. */
  readonly integers = new Set<string>();
  /** Aliases being expanded: an alias is not expanded inside itself. */
  readonly expanding = new Set<string>();
  /** Above 0 while reading text that is probably not shell (interpreter code): what cannot be parsed there is no problem. */
  quiet = 0;
  /** Commands that write files (`echo … > x.sh`, `tee`, `cp`, `mv`), in the order the line runs them. */
  readonly writes: Invocation[] = [];
  /** What `writes` made of the files, by path, up to `applied`: the text, or null when it cannot be known. */
  readonly #written = new Map<string, string | null>();
  #applied = 0;
  /** Each change of `#written` as applied: the path, what it held before, and the write it came from. */
  readonly #changes: { path: string; before: string | null | undefined; write: number }[] = [];
  /** The writes `from`…`at` that may not have happened: joined with what the files held before, once applied up to `at`. */
  readonly #joins: { from: number; at: number }[] = [];
  #joined = 0;
  /** A write went to a file whose name is only known at run time (`> $T`): any script run after it may be that file. */
  #wroteUnnamed = false;
  /** Writes whose effect is not followed (`dd of=x.sh`, `sed -i x.sh`, `ln x y.sh`): every path they name holds unknown text after them. */
  readonly #unread = new Set<Invocation>();
  /**
   * Every path a recorded write names, whether or not that write happens: what `written` may hold, asked
   * without working out the writes' joins (`ln x y.sh` of a file the line wrote).
   */
  readonly #mayBeWritten = new Set<string>();
  /** The copies (`cp`, `mv`) that may carry the line's text, decided as they were recorded. */
  readonly #carryingCopies = new Set<Invocation>();
  /** Those of them a command named beside other paths, which it may have written into as a folder. */
  readonly #mayBeWrittenFolders = new Set<string>();
  /** The last segment of each of those paths. */
  readonly #mayBeWrittenNames = new Set<string>();
  /** The command not followed that last left each path unknown. */
  readonly #unreadBy = new Map<string, Invocation>();
  /** Where the line may have put unknown text beyond the paths its commands name. */
  readonly #places = new UnknownPlaces(isConfigName);
  /** Commands that left every file (`everywhere`) or every path under folders unknown: applied in order with the writes, to the files already written. */
  readonly #blankets = new Map<Invocation, readonly string[] | "everywhere">();
  /** Interpreters whose code may write the files it spells out, not otherwise taken for writers (`perl -e`, `ruby -e`). */
  readonly #codeWriters = new Set<Invocation>();
  /** The program whose own command is being read, after the line (`prlimit ./a.out`): the paths it names are what it runs, not files it wrote first. */
  runner: Invocation | undefined;
  /**
   * Above 0 while reading commands whose standard input comes from around them (`{ …; } <<< x`, `x | ( … )`,
   * `f < file`, `>(…)`), and set for good after `exec < …`: a program reading its code there reads unknown text.
   */
  #inheritedInput = 0;
  /** Symbolic links the line made (`ln -s ~ x`): a path through one opens what it points to. */
  readonly #links = new Map<string, string>();
  #execInput = false;

  /** Files the line writes, worked out only when a command may run or read one (most lines never ask). */
  get written(): ReadonlyMap<string, string | null> {
    // Each write is read once, in order: a later one sees the files the earlier ones made.
    for (;;) {
      // Joins are applied lazily too, in order with the writes, so most lines still never work out their files.
      while (this.#joined < this.#joins.length && this.#joins[this.#joined]!.at <= this.#applied) this.applyJoin(this.#joins[this.#joined++]!);
      if (this.#applied >= this.writes.length) break;
      const invocation = this.writes[this.#applied++]!;
      if (invocation.name === "cp" || invocation.name === "mv") this.applyCopy(invocation);
      else this.applyWrites(invocation);
      if (this.#unread.has(invocation)) this.applyUnread(invocation);
      else if (this.#codeWriters.has(invocation)) this.applyCodeWrites(invocation);
      if (this.#blankets.size > 0) this.applyBlanket(invocation);
    }
    return this.#written;
  }

  constructor(
    readonly analysis: Analysis,
    readonly environment: AnalysisEnvironment,
  ) {}

  /** Reads a script: what it runs is added to `out` (one list per caller, not one per command). */
  source(text: string, depth: number, state: ShellState, via: readonly string[], out: Invocation[]): void {
    if (depth > maxDepth) {
      this.problem(`scripts are nested more than ${maxDepth} levels deep`);
      return;
    }
    // The agent's line is a whole program: bash runs its complete commands before a quote left open at its end.
    const { script, problem } = depth === 0 ? parseProgram(text) : parseScript(text);
    if (problem !== undefined) this.problem(via.length === 0 ? problem : `${problem} (in ${via.join(" → ")})`);
    if (this.dry === 0) this.analysis.scripts.push(text);
    this.script(script, depth, state, via, out);
  }

  problem(text: string): void {
    if (this.quiet > 0 || this.dry > 0) return;
    if (!this.analysis.problems.includes(text)) this.analysis.problems.push(text);
  }

  script(script: Script, depth: number, state: ShellState, via: readonly string[], out: Invocation[]): void {
    const { flow, problem } = readFlow(script);
    if (problem !== undefined) this.problem(via.length === 0 ? problem : `${problem} (in ${via.join(" → ")})`);
    this.flow(flow, depth, state, via, out);
  }

  flow(flow: Flow, depth: number, state: ShellState, via: readonly string[], out: Invocation[]): void {
    for (let index = 0; index < flow.length; index++) {
      if (this.overBudget()) return;
      const step = flow[index]!;
      this.step(step, depth, state, via, out);
      this.arrayOfCode(step, flow[index + 1], depth, state, via, out);
    }
  }

  /**
   * `PROMPT_COMMAND=('rm -rf ~' ls)`: the parser reads the array's elements as a group after `NAME=`; for a
   * variable bash runs, each element is code.
   */
  arrayOfCode(step: Step, next: Step | undefined, depth: number, state: ShellState, via: readonly string[], out: Invocation[]): void {
    if (step.kind !== "pipeline" || next?.kind !== "pipeline" || connectorBefore(next.pipeline) !== "") return;
    const last = step.pipeline.at(-1);
    const group = next.pipeline[0];
    if (last?.type !== "simple" || group?.type !== "group" || !group.subshell) return;
    const assignment = /(?:^|\s)([A-Za-z_]\w*)\+?=$/.exec(last.words.at(-1)?.text ?? "");
    if (assignment === null || codeRoleOf(assignment[1]!) === undefined) return;
    const elements: string[] = [];
    for (const pipeline of group.script)
      for (const command of pipeline) if (command.type === "simple") for (const word of command.words) elements.push(word.text);
    const unknownElement = group.script.some((pipeline) =>
      pipeline.some((command) => command.type !== "simple" || command.words.some((word) => word.substitutions.length > 0)),
    );
    this.codeInData(assignment[1]!, unknownElement ? null : elements, depth, state, via, out);
  }

  /** Runs one step; where bash may take several branches, `state` ends as the join of every branch's state. */
  step(step: Step, depth: number, state: ShellState, via: readonly string[], out: Invocation[]): void {
    if (step.kind === "pipeline") {
      this.pipeline(step.pipeline, depth, state, via, out);
    } else if (step.kind === "chain") {
      this.step(step.first, depth, state, via, out);
      // Where the chain may be after a step that succeeded, and after one that failed.
      let succeeded = state;
      let failed = state;
      // Later steps may not run: after the chain, a file they changed may hold either text.
      const files = this.filesBefore();
      for (const { operator, step: next } of step.rest) {
        const runs = copy(operator === "&&" ? succeeded : failed);
        this.step(next, depth, runs, via, out);
        if (operator === "&&") failed = join([failed, runs], this.environment);
        else succeeded = join([succeeded, runs], this.environment);
        if (operator === "&&") succeeded = runs;
        else failed = runs;
      }
      this.joinFiles(files);
      replace(state, join([succeeded, failed], this.environment));
    } else {
      const own = step.subshell ? copy(state) : state;
      // `done <<< x`, `x | while …`: the body's commands read that input (a subshell may be a pipeline's member).
      this.withInput(step.subshell || closerReadsInput(step.closer), () => {
        if (step.kind === "if") this.ifStep(step, depth, own, via, out);
        else if (step.kind === "loop") this.loop(step, depth, own, via, out);
        else this.caseStep(step, depth, own, via, out);
      });
      if (step.closer !== undefined) this.pipeline(step.closer, depth, state, via, out);
    }
  }

  ifStep(step: IfStep, depth: number, state: ShellState, via: readonly string[], out: Invocation[]): void {
    const condition = copy(state);
    const exits: ShellState[] = [];
    // Only the first condition runs for sure.
    let files: FilesBefore;
    for (const [index, clause] of step.clauses.entries()) {
      this.flow(clause.condition, depth, condition, via, out);
      if (index === 0) files = this.filesBefore();
      const body = copy(condition);
      this.flow(clause.body, depth, body, via, out);
      exits.push(body);
    }
    // Without `else`, bash goes on from the last condition that failed.
    const otherwise = copy(condition);
    if (step.otherwise !== undefined) this.flow(step.otherwise, depth, otherwise, via, out);
    this.joinFiles(files);
    exits.push(otherwise);
    replace(state, join(exits, this.environment));
  }

  caseStep(step: CaseStep, depth: number, state: ShellState, via: readonly string[], out: Invocation[]): void {
    this.flow(step.head, depth, state, via, out);
    // No arm may match; each arm starts from the case, or also from the arm before it after `;&` or `;;&`.
    const exits: ShellState[] = [copy(state)];
    let previous: ShellState | undefined;
    const files = this.filesBefore();
    for (const arm of step.arms) {
      const entry = arm.fallsThrough && previous !== undefined ? join([state, previous], this.environment) : copy(state);
      this.flow(arm.body, depth, entry, via, out);
      exits.push(entry);
      previous = entry;
    }
    this.joinFiles(files);
    replace(state, join(exits, this.environment));
  }

  /**
   * A loop runs its body any number of times, so each command in it sees every value a variable takes on
   * any pass. The first pass is read for real: a body that changes nothing the next pass reads settles on it,
   * and what that pass runs is what bash may run (its state is one bash may be in), so it stands even when
   * the loop goes on. Later passes are read ahead (recording nothing) until the state settles, then once
   * more for real from the settled state.
   */
  loop(step: LoopStep, depth: number, state: ShellState, via: readonly string[], out: Invocation[]): void {
    // What the head sets (`for f in …`) is in the state of every pass: with it, a body that changes nothing else settles at once.
    const headed = copy(state);
    this.dry++;
    this.flow(step.head, depth, headed, via, []);
    this.dry--;
    let entry = join([state, headed], this.environment);
    const writesBefore = this.writes.length;
    // A loop may run no pass at all, or stop anywhere in one.
    const files = this.filesBefore();
    let pass = this.loopPass(step, depth, entry, via, out);
    let recorded = true;
    let settled = false;
    for (let count = 1; ; count++) {
      const after = join([pass.iteration, ...pass.frame.continues], this.environment);
      // A loop whose values still grow after a few passes: what keeps changing becomes unknown.
      const next = count <= maxLoopPasses ? join([entry, after], this.environment) : widen(entry, after, this.environment);
      settled = sameState(next, entry);
      entry = next;
      if (settled || count >= maxLoopPasses * 2 || this.overBudget()) break;
      this.dry++;
      pass = this.loopPass(step, depth, entry, via, []);
      this.dry--;
      recorded = false;
    }
    if (!settled) this.problem("a loop's variables take new values on every pass, too many to follow");
    if (!settled || !recorded) pass = this.loopPass(step, depth, entry, via, out);
    if (this.writes.length > writesBefore) pass = this.passesWhileWriting(step, depth, entry, via, out, pass);
    this.joinFiles(files);
    // The loop ends when its head says so, or at a `break`; with no pass at all, the state is the one before it.
    replace(state, join([entry, pass.afterHead, pass.iteration, ...pass.frame.breaks], this.environment));
  }

  /**
   * `for i in 1 2; do ./s.sh; echo 'rm -rf ~' > s.sh; done`: a pass may run what the pass before it wrote.
   * While a pass changes the files the line wrote, the loop is read for real once more.
   */
  passesWhileWriting(step: LoopStep, depth: number, entry: ShellState, via: readonly string[], out: Invocation[], last: LoopPass): LoopPass {
    let pass = last;
    for (let count = 0; count < maxLoopPasses; count++) {
      const before = new Map(this.written);
      pass = this.loopPass(step, depth, entry, via, out);
      const changed = changedPaths(before, this.written);
      if (changed.length === 0) return pass;
      if (count === maxLoopPasses - 1) {
        // `echo x >> log` grows on every pass: what such a file holds is not known, by the next pass either.
        for (const path of changed) this.setWritten(path, null);
        return this.loopPass(step, depth, entry, via, out);
      }
    }
    return pass;
  }

  /** One pass of a loop from `entry`: the state after its head, after its body, and at each `break` and `continue`. */
  loopPass(step: LoopStep, depth: number, entry: ShellState, via: readonly string[], out: Invocation[]): LoopPass {
    const frame: LoopFrame = { breaks: [], continues: [] };
    const iteration = copy(entry);
    this.loops.push(frame);
    this.flow(step.head, depth, iteration, via, out);
    const afterHead = copy(iteration);
    this.flow(step.body, depth, iteration, via, out);
    this.loops.pop();
    return { frame, iteration, afterHead };
  }

  pipeline(pipeline: Pipeline, depth: number, state: ShellState, via: readonly string[], out: Invocation[]): void {
    // What the pipeline's earlier commands run is `out` from here on.
    const start = out.length;
    // Each part of a pipeline runs in its own subshell: a `cd` there does not last.
    const own = pipeline.length > 1;
    for (let index = 0; index < pipeline.length; index++) {
      if (this.overBudget()) return;
      this.command(pipeline[index]!, out.length === start ? noUpstream : out.slice(start), depth, own ? copy(state) : state, via, out);
    }
    // A trap set earlier may run after this pipeline: it sees this state too.
    for (let index = 0; index < this.traps.length; index++) this.traps[index]!.state = join([this.traps[index]!.state, state], this.environment);
  }

  command(command: Command, upstream: Invocation[], depth: number, state: ShellState, via: readonly string[], out: Invocation[]): void {
    if (command.type === "function") {
      state.functions = new Map(state.functions).set(command.name, [command]);
      if (this.dry === 0) this.defined.push(command);
      return;
    }
    const start = out.length;
    if (command.type === "group") {
      this.withInput(upstream.length > 0 || command.redirects.some(readsInput), () =>
        this.script(command.script, depth, command.subshell ? copy(state) : state, via, out),
      );
      if (command.redirects.length > 0)
        for (let index = start; index < out.length; index++) out[index]!.redirects = [...out[index]!.redirects, ...command.redirects];
      // `{ echo 'rm -rf ~'; } > x.sh`: what the block writes there is not followed command by command, so it is unknown text.
      const writes = command.redirects.filter(writesFile);
      if (this.dry === 0 && writes.length > 0) this.writes.push(new RecordedInvocation(["{"], "{", [], [], [], writes, [], state.cwd, via));
      return;
    }
    if (this.analysis.invocations.length >= maxInvocations) {
      this.problem(`the command runs more than ${maxInvocations} commands`);
      return;
    }
    let expansionState = state;
    // `then d=~`, `do x=1`: the reserved word opens a body, the assignment after it is the command.
    let keywords = 0;
    while (keywords < command.words.length && command.words[keywords]!.plain === true && bodyKeywords.has(command.words[keywords]!.text)) keywords++;
    const words = keywords === 0 ? command.words : command.words.slice(keywords);
    if (words.length > 0 && words[0]!.text.includes("=") && isAssignment(words[0]!.text)) {
      if (words.every((word) => isAssignment(word.text))) {
        for (const word of words) {
          if (word.substitutions.length > 0) this.assignSubstituted(word, state);
          else assign(word.expandable ?? word.text, state, this.environment);
        }
      } else {
        // `TMPDIR=/Users rm -rf $TMPDIR/x`: the words may see the old value or the new one; read both.
        expansionState = copy(state);
        for (const word of words) {
          if (!isAssignment(word.text)) break;
          assignBoth(word.text, expansionState, this.environment);
        }
      }
    }
    this.expansionProblems(command, expansionState);
    if (state.aliases !== undefined && this.aliased(command, depth, state, via, out)) return;
    const argvs = this.expandWords(command.words, expansionState);
    // Sized to the variants (most commands have one): a list grown by `push` from empty reserves room for 16.
    const direct = new Array<Invocation>(argvs.length);
    // Several argvs: bash runs one of them, so each runs (and sets, and calls) from the state before it.
    const owns = argvs.length > 1 ? new Array<ShellState>(argvs.length) : undefined;
    let made = 0;
    for (let variant = 0; variant < argvs.length; variant++) {
      const argv = argvs[variant]!;
      if (this.overBudget()) break;
      const own = owns === undefined ? state : (owns[variant] = copy(state));
      const invocation = this.invocation(argv, this.expandRedirects(command.redirects, expansionState), upstream, own, via);
      direct[made++] = invocation;
      // A word only known at run time is shown as written (`$CMD build`), not as the marker that stands for it.
      if (someUnknown(argv)) invocation.text = textsOf(command.words).join(" ");
      if (mayEvaluate.has(invocation.name)) {
        for (const problem of commandProblems(invocation.name, invocation.args, this.scope(expansionState))) this.problem(problem);
        for (const name of commandAssigned(invocation.name, invocation.args)) setVar(own, name, null);
      }
      out.push(invocation);
      // A read-ahead pass only learns the state a loop's next pass starts with: only `eval` and `source` run
      // code in this shell, so what other commands run (in a shell or program of their own) cannot change it.
      if (this.dry === 0 || sameShell.has(invocation.name)) append(out, this.runs(invocation, command.words, depth, own));
      const called = own.functions === undefined ? undefined : calledFunction(argv, own.functions);
      if (called !== undefined) this.callEach(invocation, called, depth, own, out);
    }
    if (owns !== undefined) return this.afterVariants(command, direct, owns, made, depth, state, out);
    const first = out.length > start ? out[start] : undefined;
    // `alias x='sudo '; x y`: an alias behind a wrapper is expanded where an alias ending in a space makes bash do it.
    if (first !== undefined && state.aliases !== undefined && first.wrappers.length > 0) this.aliasBehindWrapper(first, depth, state, out);
    // Substitutions do not depend on a loop variable's value: read them once, under the first variant. They
    // run in subshells, so a read-ahead pass (which only learns the state) skips them.
    if (first && this.dry === 0) this.substitutions(first, command.words, command.redirects, depth, state, out);
    // `> $f` with two values of `f`: one redirect per value, and bash writes only one of them.
    const files = first !== undefined && first.redirects.length !== command.redirects.length ? this.filesBefore() : undefined;
    if (first && (command.redirects.length > 0 || first.name === "tee")) this.recordWrites(first);
    if (first) this.recordOtherWrites(first);
    this.joinFiles(files);
    this.track(first, state);
    if (first !== undefined) this.codeAssignments(first, command.words, depth, state, out, true);
  }

  /**
   * The rest of `command` for a command with several argvs (`for f in $d`, `cd $d`, `f $d`, `eval x=$d` with
   * two values of `d`), each run from its own copy of the state: what follows sees the join of what each
   * leaves, not what the last one leaves.
   */
  afterVariants(
    command: Command & { type: "simple" },
    direct: Invocation[],
    owns: ShellState[],
    made: number,
    depth: number,
    state: ShellState,
    out: Invocation[],
  ): void {
    if (made === 0) return;
    const first = direct[0]!;
    // What the commands ran, before what they set themselves: the state the substitutions are read with.
    const ran = join(owns.slice(0, made), this.environment);
    if (ran.aliases !== undefined && first.wrappers.length > 0) this.aliasBehindWrapper(first, depth, ran, out);
    if (this.dry === 0) this.substitutions(first, command.words, command.redirects, depth, ran, out);
    // bash runs one of them, so each write may not happen.
    const files = this.filesBefore();
    for (let index = 0; index < made; index++) {
      const invocation = direct[index]!;
      if (command.redirects.length > 0 || invocation.name === "tee") this.recordWrites(invocation);
      this.recordOtherWrites(invocation);
    }
    this.joinFiles(files);
    for (let index = 0; index < made; index++) {
      this.track(direct[index], owns[index]!);
      this.codeAssignments(direct[index]!, command.words, depth, owns[index]!, out, index === 0);
    }
    replace(state, join(owns.slice(0, made), this.environment));
  }

  /**
   * `alias x='rm -rf ~'` then `x …`: the command is the alias's text with the words after the name appended.
   * bash expands an alias only on a later line, but an agent's shell often sources its own aliases: every
   * alias defined so far is expanded wherever it could be. False when the command's name is no alias.
   */
  aliased(command: Command & { type: "simple" }, depth: number, state: ShellState, via: readonly string[], out: Invocation[]): boolean {
    const at = command.words.findIndex((word) => !callerKeywords.has(word.text) && !isAssignment(word.text));
    // bash expands aliases before it knows reserved words: `alias then='rm -rf ~;'` is not followed, so it is a problem.
    const reservedAlias = command.words.slice(0, at === -1 ? command.words.length : at).find((word) => state.aliases!.has(word.text));
    if (reservedAlias !== undefined) this.problem(`the alias ${reservedAlias.text} is named like a reserved word, and where bash expands it is not followed`);
    const name = command.words[at]?.text;
    if (name === undefined || this.expanding.has(name)) return false;
    const values = state.aliases!.get(name);
    if (values === undefined) return false;
    if (values === null) {
      this.problem(`the alias ${name} stands for text that cannot be known here`);
      return false;
    }
    const exits: ShellState[] = [];
    this.expanding.add(name);
    const files = values.length > 1 ? this.filesBefore() : undefined;
    for (const value of values) {
      const own = values.length === 1 ? state : copy(state);
      // A parse of its own, never shared: the command's words are spliced into it.
      const { script, problem } = parseScript(value);
      if (problem !== undefined) this.problem(`${problem} (in alias ${name})`);
      const last = script.at(-1)?.at(-1);
      const first = script[0]?.[0];
      if (last?.type === "simple") {
        last.words = [...last.words, ...command.words.slice(at + 1)];
        last.redirects = [...last.redirects, ...command.redirects];
      } else if (at + 1 < command.words.length) this.problem(`the alias ${name} ends where its arguments cannot follow`);
      if (first?.type === "simple") first.words = [...command.words.slice(0, at), ...first.words];
      this.script(script, depth, own, [...via, `alias ${name}`], out);
      exits.push(own);
    }
    this.expanding.delete(name);
    this.joinFiles(files);
    if (values.length > 1) replace(state, join(exits, this.environment));
    return true;
  }

  aliasBehindWrapper(invocation: Invocation, depth: number, state: ShellState, out: Invocation[]): void {
    const values = state.aliases!.get(invocation.name);
    if (values === undefined || this.expanding.has(invocation.name)) return;
    if (values === null) return this.problem(`the alias ${invocation.name} stands for text that cannot be known here`);
    this.expanding.add(invocation.name);
    for (const value of values) {
      this.source([value, ...invocation.args.map(quote)].join(" "), depth + 1, copy(state), [...invocation.via, `alias ${invocation.name}`], out);
    }
    this.expanding.delete(invocation.name);
  }

  /**
   * Values given to variables that bash (or a program it starts) later runs as code: `PS4='$(…)'`,
   * `PROMPT_COMMAND=…`, `BASH_ENV=…`, `PATH=…`, `GIT_SSH_COMMAND=… git`, in every form that sets one.
   */
  codeAssignments(invocation: Invocation, words: readonly Word[], depth: number, state: ShellState, out: Invocation[], first: boolean): void {
    const { name, args } = invocation;
    // A trap's words split another way are no other body: read the first reading only.
    if (name === "trap") return first ? this.registerTrap(args, words, state, invocation.via) : undefined;
    const own = invocation.assignments.length === 0 ? invocation.assignments : invocation.assignments.slice(state.exported?.length ?? 0);
    // Most commands set nothing and are no builtin that does: nothing to read.
    if (own.length === 0 && !settingCommands.has(name) && !name.includes("]=")) return;
    const given = declarations.has(name) ? [...own, ...args.filter(isAssignment)] : [...own];
    // `PROMPT_COMMAND[0]='…'` is a command named so to the reader: an element of an array bash runs.
    const element = name.includes("]=") ? /^([A-Za-z_]\w*)\[[^\]]*\]\+?=(.*)$/s.exec(words.find((word) => word.text.includes("]="))?.text ?? "") : null;
    if (element !== null) given.push(`${element[1]}=${element[2]}`);
    for (const assignment of given) {
      const equals = assignment.indexOf("=");
      const variable = assignment.slice(0, equals).replace(/\+$/, "");
      if (codeRoleOf(variable) === undefined) continue;
      this.codeInData(variable, this.assignedValues(variable, assignment.slice(equals + 1), words, state), depth, state, invocation.via, out);
    }
    // `declare -n r=PS4`: what is written to `r` goes to PS4.
    if (declarations.has(name) && args.some((arg) => /^-[A-Za-z]*n/.test(arg))) {
      for (const arg of args.filter(isAssignment)) {
        const target = arg.slice(arg.indexOf("=") + 1);
        setVar(state, arg.slice(0, arg.indexOf("=")), null);
        if (codeRoleOf(target) !== undefined || !/^[A-Za-z_]\w*$/.test(target))
          this.problem(`${arg} makes a name for ${target}, whose value bash runs as code`);
      }
    }
    for (const variable of namesSetBy(name, args)) {
      if (codeRoleOf(variable) !== undefined) this.codeInData(variable, state.vars.get(variable) ?? null, depth, state, invocation.via, out);
    }
    // Operands that are not known numbers are problems already (`commandProblems`); here the code in them is found.
    if (name === "let" && first) for (const expression of args) this.arithmetic(expression, depth, state, invocation.via, out, new Set());
    // `[[ $x -eq 1 ]]` reads both sides as arithmetic.
    if (name === "[[" && first && args.some((arg) => /^-(?:eq|ne|lt|le|gt|ge)$/.test(arg)))
      for (const operand of args) this.arithmetic(operand, depth, state, invocation.via, out, new Set());
    // `declare -i x`: what is assigned to x from then on is arithmetic.
    if (declarations.has(name) && args.some((arg) => /^-[A-Za-z]*i/.test(arg)))
      for (const arg of args) if (/^[A-Za-z_]\w*/.test(arg)) this.integers.add(/^[A-Za-z_]\w*/.exec(arg)![0]);
    if (first && this.integers.size > 0) {
      for (const assignment of [...own, ...(declarations.has(name) ? args.filter(isAssignment) : [])]) {
        const variable = assignment.slice(0, assignment.indexOf("=")).replace(/\+$/, "");
        if (this.integers.has(variable)) this.arithmetic(assignment.slice(assignment.indexOf("=") + 1), depth, state, invocation.via, out, new Set());
      }
    }
  }

  /**
   * What a `NAME=value` gives NAME: the value as expanded now and as written (bash expands a code variable's
   * `$x` again when it runs it); null when a substitution's output, or a variable the line set, cannot be known.
   */
  assignedValues(name: string, value: string, words: readonly Word[], state: ShellState): readonly string[] | null {
    if (substitutedAtRunTime(name, value, words)) return null;
    const written = words.find((word) => word.text.startsWith(`${name}=`) || word.text.startsWith(`${name}+=`));
    const values = new Set([value]);
    const role = codeRoleOf(name);
    if (written !== undefined && written.substitutions.length === 0 && (role === "command" || role === "prompt"))
      values.add(written.text.slice(written.text.indexOf("=") + 1));
    for (const text of values) {
      for (const [, variable] of text.matchAll(/\$\{?([A-Za-z_]\w*)/g)) if (state.vars.has(variable!) && state.vars.get(variable!) === null) return null;
    }
    return [...values];
  }

  /** Reads what a code variable holds as bash will use it; a value that cannot be known is a problem. */
  codeInData(name: string, values: readonly string[] | null, depth: number, state: ShellState, via: readonly string[], out: Invocation[]): void {
    const role = codeRoleOf(name)!;
    if (values === null || (role !== "folders" && values.some(isUnknown))) {
      this.problem(`${name} is set to a value that cannot be known here, and bash runs what it holds`);
      return;
    }
    for (const value of values) this.codeValue(name, role, value, depth, state, [...via, name], out);
  }

  codeValue(name: string, role: CodeRole, value: string, depth: number, state: ShellState, via: readonly string[], out: Invocation[]): void {
    // A command or a prompt runs later, like a trap: read at the end with every state it may run in.
    if (role === "command") {
      if (value.trim() !== "") this.defer(value, state, via);
    } else if (role === "prompt") {
      for (const script of promptSubstitutions(value)) this.defer(script, state, via);
    } else if (role === "sourced") {
      if (value === "" || value === "/dev/null") return;
      const scripts = this.writtenScript(value, state.cwd);
      if (scripts.length === 0) this.problem(`${name}=${value} makes bash read that file as code, and what it holds is not known here`);
      for (const [script] of scripts) this.source(script, depth + 1, copy(state, false), via, out);
    } else if (role === "folders") {
      this.searchFolders(name, value, state);
    } else if (role === "loads") {
      if (value !== "") this.problem(`${name} loads code into the programs started after it, and that code is not read here`);
    } else if (optionsLoadCode(name, value)) {
      this.problem(`${name}=${value} makes programs load code that is not read here`);
    }
  }

  /** `PATH=…`: each folder must be known, absolute and not one the line writes programs into. */
  searchFolders(name: string, value: string, state: ShellState): void {
    // The list it had before: `$PATH` as written, or, expanded, one unknown folder for each time the line names it.
    let inherited = this.analysis.source.split(`$${name}`).length - 1 + this.analysis.source.split(`\${${name}}`).length - 1;
    for (const folder of value.split(":")) {
      if (folder === `$${name}` || folder === `\${${name}}`) continue;
      if (folder === unknownText && inherited > 0) {
        inherited--;
        continue;
      }
      if (folder.includes("$") || folder.includes("`") || isUnknown(folder)) {
        this.problem(`${name} holds a folder that cannot be known here, so which program a name runs is not known`);
      } else if (!folder.startsWith("/") && !folder.startsWith("~")) {
        this.problem(`${name} holds the relative folder "${folder}", so which program a name runs depends on the folder it runs in`);
      } else if (this.writes.length > 0) {
        const key = this.writtenKey(folder, state.cwd);
        for (const path of this.written.keys()) {
          if (path.startsWith(`${key}/`)) this.problem(`${name} puts ${folder} first, a folder the line writes programs into`);
        }
      }
    }
  }

  /**
   * `let 'a[$(…)]'`, `let x` with `x='a[$(…)]'`: arithmetic reads the values of the variables it names as
   * arithmetic too, and an array subscript there runs its `$(…)`. Variables the line set to something it
   * cannot know are a problem; those it did not set are the agent's own.
   */
  arithmetic(expression: string, depth: number, state: ShellState, via: readonly string[], out: Invocation[], seen: Set<string>): void {
    for (const script of promptSubstitutions(expression)) this.source(script, depth + 1, copy(state), [...via, "arithmetic"], out);
    for (const [name] of expression.matchAll(/[A-Za-z_]\w*/g)) {
      // Each variable is read once per expression: `x=y; y=x` and wide fans of names stay bounded.
      if (!state.vars.has(name) || seen.has(name)) continue;
      seen.add(name);
      const values = state.vars.get(name);
      // A value that cannot be known is a problem of `commandProblems` already (code-in-expansions.ts).
      if (values === null || values === undefined) continue;
      for (const value of values) if (/[[$`A-Za-z_]/.test(value)) this.arithmetic(value, depth, state, via, out, seen);
    }
  }

  topLevel(cwd: string | undefined): string | undefined {
    const root = this.environment.projectRoot;
    if (root === undefined || cwd === undefined) return undefined;
    return cwd === root || cwd.startsWith(`${root}/`) ? `${root}\n` : undefined;
  }

  /** The `trap` bodies, read at the end with every state they may run in (a trap runs later than it is set). */
  trapBodies(): void {
    for (const trap of this.traps) {
      if (isUnknown(trap.body)) this.problem("a trap runs text that cannot be known here");
      else {
        const files = this.filesBefore();
        this.source(trap.body, 1, copy(trap.state), trap.via, []);
        this.joinFiles(files);
      }
    }
  }

  /**
   * `trap '…' EXIT INT`: the body runs later, in this shell, and expands its words then: it is read as written
   * (and as expanded now, for `trap "…$x…"`). `trap -p`, `trap - INT` and `trap '' INT` run nothing.
   */
  registerTrap(args: readonly string[], words: readonly Word[], state: ShellState, via: readonly string[]): void {
    const at = args[0] === "--" ? 1 : 0;
    if (at === 0 && args[0]?.startsWith("-") && args[0] !== "-") return;
    const body = args[at];
    // `trap INT` (one word) resets the signal.
    if (body === undefined || args.length - at < 2 || body === "-" || body.trim() === "") return;
    const trap = words.findIndex((word) => word.text === "trap");
    const written = words[trap + 1 + (words[trap + 1]?.text === "--" ? 1 : 0)];
    if (written !== undefined && written.substitutions.length === 0 && written.text !== body) this.defer(written.text, state, [...via, "trap"]);
    this.defer(body, state, [...via, "trap"]);
  }

  /** Code that runs later in this shell (a trap, `PROMPT_COMMAND`, a prompt's `$(…)`): kept to be read at the end. */
  defer(body: string, state: ShellState, via: readonly string[]): void {
    if (this.dry > 0) return;
    if (this.traps.length >= maxTraps) return this.problem(`the line sets more than ${maxTraps} traps and code variables`);
    this.traps.push({ body, state: copy(state), via });
  }

  /** A call of a function that may have several bodies (defined in two branches): each is read, and their states joined. */
  callEach(invocation: Invocation, definitions: readonly FunctionCommand[], depth: number, state: ShellState, out: Invocation[]): void {
    // `f <<< x`, `x | f`: what the body runs reads the call's input.
    this.withInput(hasOwnInput(invocation), () => this.callDefinitions(invocation, definitions, depth, state, out));
  }

  callDefinitions(invocation: Invocation, definitions: readonly FunctionCommand[], depth: number, state: ShellState, out: Invocation[]): void {
    if (definitions.length === 1) return this.call(invocation, definitions[0]!, depth, state, out);
    const files = this.filesBefore();
    const exits = definitions.map((fn) => {
      const own = copy(state);
      this.call(invocation, fn, depth, own, out);
      return own;
    });
    this.joinFiles(files);
    replace(state, join(exits, this.environment));
  }

  /** `TMP=$(mktemp -d)`: the value with the substitutions whose output is known put in; unknown when one is not. */
  assignSubstituted(word: Word, state: ShellState): void {
    const equals = word.text.indexOf("=");
    const name = word.text.slice(0, equals).replace(/\+$/, "");
    const values = new Set<string>();
    for (const [value] of this.expandWord(word, state)) if (value !== undefined) values.add(value.slice(value.indexOf("=") + 1));
    const known = [...values].every((value) => !/\$\(|`/.test(value) && !isUnknown(value));
    setVar(state, name, known && !word.text.slice(0, equals).endsWith("+") ? [...values] : null);
  }

  /**
   * Redirect targets as bash opens them: `> $d` with `d=/dev/sda` writes `/dev/sda`. A target with several
   * values (a loop variable) gives one redirect per value, so each is classified; others stay as written.
   */
  expandRedirects(redirects: Redirect[], state: ShellState): Redirect[] {
    if (!redirects.some((redirect) => writesFile(redirect) && redirect.target.plain !== true && mayExpand(redirect.target.text))) return redirects;
    const expanded: Redirect[] = [];
    for (const redirect of redirects) {
      if (!writesFile(redirect) || redirect.target.plain === true || !mayExpand(redirect.target.text)) {
        expanded.push(redirect);
        continue;
      }
      const texts = new Set(this.expandWord(redirect.target, state).flatMap((words) => (words.length === 1 ? words : [])));
      if (texts.size === 0) expanded.push(redirect);
      for (const text of texts) expanded.push({ ...redirect, target: { ...redirect.target, text } });
    }
    return expanded;
  }

  /** Code kept in the words' expansions (`${x@P}`, arithmetic on unknown values); `${x:=…}` leaves x unknown. */
  expansionProblems(command: { words: readonly Word[]; redirects: readonly Redirect[] }, state: ShellState): void {
    // One record per command, filled only when a word holds something to scan (no closure per call: this runs for every command).
    const found: ExpansionScan = { scope: undefined, assigned: undefined };
    const { words, redirects } = command;
    for (let index = 0; index < words.length; index++) this.scanExpansions(words[index]!.expandable ?? words[index]!.text, state, found);
    // Indexed: a command with no redirect shares one frozen empty list, and a for-of over a frozen array makes an iterator each time.
    for (let index = 0; index < redirects.length; index++) {
      const redirect = redirects[index]!;
      this.scanExpansions(redirect.target.expandable ?? redirect.target.text, state, found);
      // An unquoted heredoc body is expanded like a double-quoted word.
      if (redirect.body !== undefined && redirect.target.plain === true) this.scanExpansions(redirect.body, state, found);
    }
    if (found.assigned !== undefined) for (const name of found.assigned) setVar(state, name, null);
  }

  scanExpansions(text: string, state: ShellState, found: ExpansionScan): void {
    // Code hides only behind `${`, `$((`, `$[` or a subscript's `[`: a word with none of them (most words,
    // `$f`, `"$(git diff)"`, whose `$(…)` is read as a script of its own) holds nothing to scan.
    if (!mayHoldCode(text)) return;
    const result = wordExpansionProblems(text, (found.scope ??= this.scope(state)));
    for (const problem of result.problems) this.problem(problem);
    for (const name of result.assigned) (found.assigned ??= []).push(name);
  }

  scope(state: ShellState) {
    return { lookup: lookupIn(state, this.environment), cwd: state.cwd };
  }

  /** What a function call runs: its body, in the caller's shell (a `cd` inside lasts), one level deeper. */
  call(invocation: Invocation, fn: FunctionCommand, depth: number, state: ShellState, out: Invocation[]): void {
    if (this.dry === 0) this.called.add(fn);
    if (depth > maxDepth) return;
    const entry = this.entries.get(fn);
    if (entry !== undefined) {
      // A recursive call that starts where the first one did runs nothing new; one that starts elsewhere is not followed.
      const probe = copy(state);
      setPositional(probe, invocation.args);
      if (!sameState(probe, entry)) this.problem(`the function ${fn.name} calls itself with other values, and what later calls run is not followed`);
      return;
    }
    const start = out.length;
    // The body sees the call's words as `$1`, `$2`, … and the caller's come back after it.
    const saved = positionalNames.map((key) => [key, state.vars.has(key) ? state.vars.get(key)! : undefined] as const);
    setPositional(state, invocation.args);
    this.entries.set(fn, copy(state));
    this.calling.add(fn);
    const returns: ShellState[] = [];
    this.returns.push(returns);
    this.command(fn.body, [], depth + 1, state, [...invocation.via, `${fn.name}()`], out);
    this.returns.pop();
    this.entries.delete(fn);
    // A `return` in a branch ends the call there: the caller may go on from that state too.
    if (returns.length > 0) replace(state, join([state, ...returns], this.environment));
    for (const [key, value] of saved) {
      if (value !== undefined) setVar(state, key, value);
      else if (state.vars.has(key)) {
        if (!state.ownsVars) setVar(state, key, null);
        state.vars.delete(key);
      }
    }
    this.calling.delete(fn);
    appendFrom(invocation.nested, out, start);
  }

  /** Reads the bodies of functions never called, as if each were called once from the start. */
  uncalledFunctions(): void {
    this.dormant = true;
    for (const fn of this.defined) {
      if (this.called.has(fn)) continue;
      this.called.add(fn);
      const state = emptyState(this.environment.cwd);
      this.command(fn.body, [], 1, state, [`${fn.name}() (never called)`], []);
    }
    this.dormant = false;
  }

  overBudget(): boolean {
    if (this.analysis.invocations.length < maxInvocations && this.work < maxWork) return false;
    this.problem(`the command runs more than ${maxInvocations} commands`);
    return true;
  }

  invocation(argv: string[], redirects: Redirect[], upstream: Invocation[], state: ShellState, via: readonly string[]): Invocation {
    const { name, args, wrappers, assignments, placeholder, inputFromFile, chdir } = unwrap(argv);
    // What `export` set earlier reaches this command's environment too, before its own `NAME=value` words.
    const environment = state.exported === undefined ? assignments : [...state.exported, ...assignments];
    // `env --chdir=/ rm -rf *`, `sudo -D / …`: the command runs in that folder.
    const cwd = chdir === undefined ? state.cwd : changeDirectory(state.cwd, [chdir], this.environment);
    const entering = name === "cd" || name === "pushd";
    const opened = this.#links.size === 0 ? args : args.map((arg) => throughLinks(arg, cwd, this.#links, entering));
    const invocation = new RecordedInvocation(argv, name, opened, wrappers, environment, redirects, upstream, cwd, via);
    if (name === "ln" && this.dry === 0) for (const [link, target] of linksMadeBy(args, cwd, this.environment.home)) this.#links.set(link, target);
    if (wrappers.length > 0 && wrappers.some((wrapper) => inputWrappers.has(wrapper))) invocation.input = "stdin";
    if (placeholder !== undefined) invocation.placeholder = placeholder;
    if (inputFromFile) invocation.inputFromFile = true;
    this.work++;
    if (this.dry > 0) return invocation;
    (this.dormant ? this.analysis.uncalled : this.analysis.invocations).push(invocation);
    // `xargs -I{} {} -rf /`: the command is the input.
    const fromInput = placeholder !== undefined && name === placeholder;
    if (!this.dormant && this.quiet === 0 && (fromInput || isUnresolvedName(name))) this.analysis.unresolved.push(invocation);
    return invocation;
  }

  /** Runs the scripts in `$(…)`, backticks and `<(…)` of a command's words, one level deeper. */
  substitutions(invocation: Invocation, words: readonly Word[], redirects: readonly Redirect[], depth: number, state: ShellState, out: Invocation[]): void {
    const start = out.length;
    let via: readonly string[] | undefined;
    for (let index = 0; index < words.length; index++) {
      const word = words[index]!;
      for (const substitution of word.substitutions) {
        via ??= [...invocation.via, "$(…)"];
        // `>(bash)`: what the command writes to that file is the substitution's input.
        this.withInput(word.text.includes(`>(${substitution})`), () => this.source(substitution, depth + 1, copy(state), via!, out));
      }
    }
    for (let index = 0; index < redirects.length; index++) {
      const redirect = redirects[index]!;
      for (const substitution of redirect.target.substitutions) {
        via ??= [...invocation.via, "$(…)"];
        this.withInput(redirect.target.text.includes(`>(${substitution})`), () => this.source(substitution, depth + 1, copy(state), via!, out));
      }
      // A heredoc whose delimiter is unquoted (`<<EOF`) expands its body: the substitutions in it run.
      if (redirect.body === undefined || redirect.target.plain !== true || !mayExpandText(redirect.body)) continue;
      const found = heredocSubstitutions(redirect.body);
      if (found.problem !== undefined) this.problem(`a heredoc body: ${found.problem}`);
      for (const substitution of found.substitutions) this.source(substitution, depth + 1, copy(state), [...invocation.via, "heredoc $(…)"], out);
    }
    if (out.length > start) appendFrom(invocation.nested, out, start);
  }

  /** Runs what an invocation runs in turn, one level deeper: `sh -c`, `eval`, `find -exec`, one-liners. */
  runs(invocation: Invocation, words: readonly Word[], depth: number, state: ShellState): Invocation[] {
    if (depth > maxDepth) {
      this.problem(`scripts are nested more than ${maxDepth} levels deep`);
      return [];
    }
    const { name, via } = invocation;
    // `exec < f`, `exec 3<<< x`: the shell's own input changes for every command after it.
    if ((name === "exec" || invocation.wrappers.includes("exec")) && invocation.redirects.some(readsInput)) this.#execInput = true;
    if (this.writes.length > 0) {
      // `echo 'rm -rf /' > s.sh; chmod +x s.sh; ./s.sh`: a script the line wrote, run by its path.
      const path = invocation instanceof RecordedInvocation ? invocation.argv[invocation.argv.length - invocation.args.length - 1] : undefined;
      // `PATH=/tmp/bin:$PATH; … > /tmp/bin/ls; ls`: a name found in a folder of a PATH the line set, where it wrote that name.
      if (path !== undefined && !path.includes("/") && state.vars.has("PATH")) {
        for (const folders of state.vars.get("PATH") ?? []) {
          for (const folder of folders.split(":")) {
            for (const [script, how] of this.writtenScript(`${folder}/${path}`, invocation.cwd))
              this.source(script, depth + 1, copy(state, false), [...via, `PATH → ${how}`], invocation.nested);
          }
        }
      }
      if (path?.includes("/")) {
        for (const [script, how] of this.writtenScript(path, invocation.cwd))
          this.source(script, depth + 1, copy(state, false), [...via, how], invocation.nested);
      }
    }
    // `echo ok | xargs sudo --`, `echo 'ls' | parallel`: with no command of its own, the known input is the command.
    if (name === "" && invocation.input === "stdin") {
      for (const script of this.inputCommands(invocation)) this.source(script, depth + 1, copy(state), [...via, "input"], invocation.nested);
      return invocation.nested;
    }
    if (foreignShells.has(name)) this.foreignShell(invocation);
    if (this.writes.length > 0 && (this.#places.wroteWatched || this.#places.whyAnyUnknown() !== undefined || namesItsConfig(name)))
      this.configRunner(invocation);
    if (this.writes.length > 0 && runsNamedAtRunTime(invocation))
      this.problem(`the line writes files, then runs a file ${name || "{}"} is given only when it runs (from find or xargs), which may be one of them`);
    // Most commands run nothing of their own: no script, no `-exec`, no code.
    if (!mayRunMore.has(name) && name.charCodeAt(0) !== 112 && !isUnknown(name)) return invocation.nested; // `p`: python3.12, pypy3
    const interpreter = isInterpreter(name);
    if (!interpreter && name !== "find" && name !== "git" && !runsScripts.has(name) && !isShell(name)) return invocation.nested;
    const scripts = this.scriptsRunBy(invocation, words, state);
    // A new shell (`sh -c f`) does not know this one's functions; `eval` and `source` run in this one.
    // `eval 'cd ~'`, `source env.sh`: what they set lasts in this shell, like any command of the line.
    const here = sameShell.has(name) && invocation.wrappers.every((wrapper) => sameShellWrappers.has(wrapper));
    const inner = here ? state : scripts.length > 0 || interpreter ? copy(state, sameShell.has(name)) : state;
    // `sh -c '"$@"' _ rm -rf /`: the words after the script are its `$0`, `$1`, …
    if (scripts.length > 0 && isShell(name)) {
      const flag = invocation.args.findIndex(isCommandFlag);
      const script = flag === -1 ? -1 : invocation.args.findIndex((arg, index) => index > flag && (!arg.startsWith("-") || arg.length === 1));
      if (script !== -1) {
        const given = invocation.args.slice(script + 1);
        const words = invocation.input === "stdin" ? wordsWithInput(invocation, given) : given;
        setVar(inner, "0", words[0] === undefined ? [name] : [words[0]]);
        setPositional(inner, words.slice(1));
      }
    }
    // `x | bash -c 'source /dev/stdin'`: the script's commands read the shell's input.
    this.withInput(hasOwnInput(invocation), () => {
      for (const [script, how] of scripts) this.source(script, depth + 1, inner, [...via, how], invocation.nested);
    });
    for (const argv of findExecCommands(invocation)) {
      const child = this.invocation(argv, [], [], state, [...via, "find -exec"]);
      child.input = "find";
      invocation.nested.push(
        child,
        ...this.runs(
          child,
          argv.map((text) => ({ text, substitutions: [] })),
          depth + 1,
          state,
        ),
      );
    }
    const code = interpreter ? (this.writtenCode(invocation) ?? analyzeInterpreter(invocation, () => this.stdinCode(invocation))) : undefined;
    if (code) {
      if (code.hidden !== undefined) this.problem(`${code.how} ${code.hidden}: what it would run cannot be read here`);
      for (const script of code.scripts) this.source(script, depth + 1, inner, [...via, code.how], invocation.nested);
      // Shell commands written straight into the code (`node -e "rm -rf /"`) are read too, quietly: it is code, not shell.
      if (hasShellWords(code.code)) {
        this.quiet++;
        this.source(code.code, depth + 1, copy(state), [...via, code.how], invocation.nested);
        this.quiet--;
      }
      for (const deletion of code.deletions) {
        const argv = ["rm", deletion.recursive ? "-rf" : "-f", "--", deletion.target ?? (deletion.recursive ? "$(unknown)" : "")];
        const child = this.invocation(argv, [], [], state, [...via, code.how]);
        child.text = deletion.call;
        invocation.nested.push(child);
      }
    }
    return invocation.nested;
  }

  /** Runs `read` with the input of the commands it reads coming from around them when `inherits`. */
  withInput(inherits: boolean, read: () => void): void {
    if (inherits) this.#inheritedInput++;
    try {
      read();
    } finally {
      if (inherits) this.#inheritedInput--;
    }
  }

  /**
   * A program about to read its code from standard input: when that input is neither its own pipe nor its own
   * redirect but comes from around it (`{ bash; } <<< x`, `exec < f; sh`, `bash <&3`), the code is not known.
   */
  checkInheritedInput(invocation: Invocation, name: string): void {
    // `bash < /dev/tcp/host/80`, `cat < /dev/tcp/host/80 | sh`: bash opens the connection itself, like a download.
    const upstream = lastUpstream(invocation);
    if (readsNetwork(invocation) || (upstream !== undefined && readsNetwork(upstream)))
      this.problem(`${name} reads its code from a network connection (/dev/tcp, /dev/udp), and what that sends cannot be known here`);
    const duplicated = invocation.redirects.some((redirect) => redirect.operator === "<&" || redirect.operator === "<>");
    const inherited = !hasOwnInput(invocation) && (this.#inheritedInput > 0 || this.#execInput);
    if (duplicated || inherited) this.problem(`${name} reads its code from an input that comes from around it, and what that holds cannot be known here`);
  }

  /** A shell that reads another language than bash's: what it is given to run is not read as bash. */
  foreignShell(invocation: Invocation): void {
    const { name, args } = invocation;
    const onlyAsks = args.length > 0 && args.every((arg) => arg === "--version" || arg === "--help");
    if (!onlyAsks) this.problem(`${name} reads its own language, not bash's: what it would run is not read here`);
  }

  /** Command text a shell-like invocation runs: `sh -c '…'`, `eval …`, heredocs, here-strings, piped text. */
  scriptsRunBy(invocation: Invocation, words: readonly Word[], state: ShellState): [string, string][] {
    const { name, args } = invocation;
    if (name === "git") return gitScripts(invocation);
    if (!runsScripts.has(name) && !isShell(name)) return [];
    const withStatic = (text: string) => this.substituteStatic(text, words, state);
    if (name === "eval") return [[withStatic(args.join(" ")), "eval"]];
    if ((name === "source" || name === ".") && args[0] !== undefined) return this.fileScripts(args[0], name, words, state, invocation);
    if (name === "su" || name === "script" || name === "runuser") {
      const flag = args.findIndex((arg) => arg === "-c" || arg === "--command");
      return flag === -1 || args[flag + 1] === undefined ? [] : [[withStatic(args[flag + 1]!), `${name} -c`]];
    }
    if (name === "watch") {
      const command = args.slice(skipValuedOptions(args, ["-n", "--interval", "-d", "--differences", "-q", "--equexit"]));
      // watch joins its words with spaces for `sh -c`; read them that way and, in case they were meant whole, quoted too.
      return command.length === 0
        ? []
        : [
            [command.join(" "), "watch"],
            [command.map(quote).join(" "), "watch"],
          ];
    }
    // `parallel rm -rf {} ::: build dist`: each job's command line, with its inputs in place.
    if (name === "parallel") {
      const found = parallelJobsOf(args);
      return found === undefined ? [] : parallelScripts(found.jobs, found.placeholder).map((script) => [withStatic(script), "parallel"]);
    }
    if (name === "ssh") return [];
    if (!isShell(name)) return [];
    const scripts: [string, string][] = [];
    const flagIndex = args.findIndex(isCommandFlag);
    if (flagIndex !== -1) {
      const script = args.slice(flagIndex + 1).find((arg) => !arg.startsWith("-") || arg.length === 1);
      if (script === undefined) return scripts;
      const { placeholder } = invocation;
      // `echo 'rm -rf /' | xargs -I{} sh -c {}`: with the input known, read the script each input line makes.
      const inputs = placeholder !== undefined && script.includes(placeholder) ? knownInputs(invocation, "lines") : undefined;
      if (inputs !== undefined) for (const item of inputs) scripts.push([withStatic(script.replaceAll(placeholder!, item)), `${name} -c`]);
      else scripts.push([withStatic(script), `${name} -c`]);
      return scripts;
    }
    const fileAt = args.findIndex((arg) => !arg.startsWith("-") && arg !== "-");
    // `bash -s -- a b`: the script is standard input, the words after it are its arguments.
    const fromStdin = args.slice(0, fileAt === -1 ? args.length : fileAt).some((arg) => /^-[A-Za-z]*s[A-Za-z]*$/.test(arg));
    if (fileAt !== -1 && !fromStdin) return this.fileScripts(args[fileAt]!, name, words, state, invocation);
    return this.stdinScripts(invocation, name);
  }

  /**
   * The command lines xargs or parallel runs when the line gives it no command but its input is known: each
   * input line (parallel) or the words (xargs) after the wrappers that follow it (`xargs sudo --` runs `sudo -- ok`).
   */
  inputCommands(invocation: Invocation): string[] {
    if (!(invocation instanceof RecordedInvocation)) return [];
    const parallel = invocation.wrappers.findLast((wrapper) => inputWrappers.has(wrapper)) === "parallel";
    const prefix = (unwrap(invocation.argv).inputCommand ?? []).map(quote);
    // Plain `xargs` runs `echo` on its input.
    if (!parallel && prefix.length === 0) return [];
    const inputs = knownInputs(invocation, parallel ? "lines" : "words");
    if (inputs === undefined) return [];
    return parallel ? inputs.map((line) => [...prefix, line].join(" ")) : [[...prefix, ...inputs].join(" ")];
  }

  /**
   * What a shell reads on its standard input: heredocs, here-strings, and what the pipeline sends it, through
   * filters it can follow (`tr`, `rev`, `base64 -d`, …). Text from a command whose output cannot be known is
   * a problem: the script is unknown (a downloaded one has its own rule).
   */
  stdinScripts(invocation: Invocation, name: string): [string, string][] {
    this.checkInheritedInput(invocation, name);
    const scripts: [string, string][] = [];
    for (const text of stdinTexts(invocation)) scripts.push([text, `${name} (stdin)`]);
    // `bash < x.sh` after the line wrote x.sh.
    for (const redirect of invocation.redirects) if (redirect.operator === "<") scripts.push(...this.writtenScript(redirect.target.text, invocation.cwd));
    const upstream = lastUpstream(invocation);
    if (upstream === undefined || invocation.redirects.some((redirect) => staticInput(redirect) !== undefined)) return scripts;
    const output = this.outputOf(upstream, 0);
    if (output !== undefined) {
      if (!scripts.some(([text]) => text === output)) scripts.push([output, `${upstream.name} | ${name}`]);
    } else if (!readsFiles(upstream) || this.catWritten(upstream) === null) {
      this.problem(`${name} runs the output of ${upstream.name} as a script, and what that prints cannot be known here`);
    }
    return scripts;
  }

  /** What an interpreter reads as code on standard input, when the line gives it. */
  stdinCode(invocation: Invocation): string[] {
    this.checkInheritedInput(invocation, invocation.name);
    return stdinTexts(invocation);
  }

  /** What an invocation prints, when it follows from the line: `echo`, `printf`, `cat <<EOF`, and known text through a filter. */
  outputOf(invocation: Invocation, depth: number): string | undefined {
    const direct = staticOutput(invocation, staticInput);
    // echo ends its line (`echo a > f; echo b >> f` writes two lines), unless told not to.
    if (direct !== undefined) return invocation.name === "echo" && echoOutput(invocation.args).newline ? `${direct}\n` : direct;
    const written = this.catWritten(invocation);
    if (written !== undefined) return written ?? undefined;
    if (depth > maxDepth || !transformNames.has(invocation.name)) return undefined;
    let input: string | undefined;
    for (const redirect of invocation.redirects) input ??= staticInput(redirect);
    if (input === undefined) {
      const upstream = lastUpstream(invocation);
      input = upstream === undefined ? undefined : this.outputOf(upstream, depth + 1);
    }
    return input === undefined ? undefined : transformText(invocation.name, invocation.args, input);
  }

  /**
   * `cat > x.py <<EOF … EOF; python3 x.py`: a program file the line wrote, read as the interpreter would read
   * it on standard input. Undefined when the file was not written here (or the code comes from `-c`/`-e`).
   */
  writtenCode(invocation: Invocation): ReturnType<typeof analyzeInterpreter> {
    if (this.writes.length === 0) return undefined;
    const { args } = invocation;
    const fileAt = args.findIndex((arg) => !arg.startsWith("-"));
    if (fileAt === -1 || args.slice(0, fileAt).some((arg) => codeFlags.test(arg))) return undefined;
    const file = args[fileAt]!;
    const key = this.writtenKey(file, invocation.cwd);
    const text = this.ownUnread(key) ? undefined : this.written.get(key);
    if (text === undefined) {
      this.unknownPlace(file, key);
      return undefined;
    }
    if (text === null) {
      this.problem(`the line writes ${file} and runs it, and what it writes there cannot be known here`);
      return undefined;
    }
    const probe: Invocation = {
      ...invocation,
      name: invocation.name === "nodejs" ? "node" : invocation.name,
      args: [],
      redirects: [],
      upstream: [],
      nested: [],
    };
    const code = analyzeInterpreter(probe, () => [text]);
    return code === undefined ? undefined : { ...code, how: `${invocation.name} ${file}` };
  }

  /** Remembers the files an invocation writes (`>`, `>>`, `&>`, `tee`) and what they hold, when that is known. */
  recordWrites(invocation: Invocation): void {
    if (this.dry === 0 && (invocation.name === "tee" || invocation.redirects.some((redirect) => writesFile(redirect) || redirect.operator === "<>"))) {
      this.writes.push(invocation);
      for (const redirect of invocation.redirects) this.noteMayBeWritten(redirect.target.text, invocation.cwd);
      if (invocation.name === "tee") this.noteArgumentTargets(invocation);
    }
  }

  /** Every path an argument names (`y.sh`, `of=y.sh`), as a file the line may have written. */
  noteArgumentTargets(invocation: Invocation): void {
    const paths = pathsNamedBy(invocation.args);
    // Any of them may be a folder the others land in (`ln x d/`): asked of the folder as `mayBeWritten` looks.
    for (const path of paths) this.noteMayBeWritten(path, invocation.cwd, paths.length > 1);
  }

  noteMayBeWritten(path: string, cwd: string | undefined, mayBeFolder = false): void {
    const key = this.writtenKey(path, cwd);
    this.#mayBeWritten.add(key);
    const name = lastSegment(key);
    this.#mayBeWrittenNames.add(name);
    this.#places.noted(key, name);
    if (mayBeFolder) this.#mayBeWrittenFolders.add(key);
  }

  /** Whether `path` may name a file a recorded write names; its last segment is asked first, as most paths share none. */
  mayBeWritten(path: string, cwd: string | undefined): boolean {
    if (this.#mayBeWritten.size === 0) return false;
    const last = lastSegment(path);
    const plain = last !== "" && last !== "." && last !== ".." && !path.startsWith("~");
    if (plain && !this.#mayBeWrittenNames.has(last)) return false;
    const key = this.writtenKey(path, cwd);
    return this.#mayBeWritten.has(key) || this.#mayBeWrittenFolders.has(key.slice(0, key.lastIndexOf("/")));
  }

  /** The files as written so far, before code that may not run (undefined when the line wrote none yet). */
  filesBefore(): FilesBefore {
    return this.writes.length;
  }

  /** After code that may not run: a file it changed from a text the line wrote there may hold either, so it is unknown. */
  joinFiles(before: FilesBefore): void {
    if (before === undefined || before === this.writes.length) return;
    this.#joins.push({ from: before, at: this.writes.length });
  }

  applyJoin({ from }: { from: number; at: number }): void {
    // What each path held when write `from` was reached: the `before` of its first change since.
    const held = new Map<string, string | null | undefined>();
    for (let index = this.#changes.length - 1; index >= 0 && this.#changes[index]!.write >= from; index--) {
      const change = this.#changes[index]!;
      held.set(change.path, change.before);
    }
    for (const [path, before] of held) if (before !== undefined && before !== this.#written.get(path)) this.setWritten(path, null);
  }

  setWritten(path: string, text: string | null): void {
    this.#changes.push({ path, before: this.#written.get(path), write: Math.max(this.#applied - 1, 0) });
    this.#written.set(path, text);
    this.#unreadBy.delete(path);
  }

  applyWrites(invocation: Invocation): void {
    // `exec 3<>x.sh; echo … >&3`: a file opened to read and write, written through a descriptor not followed.
    for (const redirect of invocation.redirects) {
      const key = redirect.operator === "<>" ? this.writtenKey(redirect.target.text, invocation.cwd) : undefined;
      if (key !== undefined && !key.startsWith("/dev/")) this.setWritten(key, null);
    }
    const targets: [string, boolean][] = [];
    for (const redirect of invocation.redirects) if (writesFile(redirect)) targets.push([redirect.target.text, redirect.operator.endsWith(">>")]);
    if (invocation.name === "tee") {
      const append = invocation.args.includes("-a") || invocation.args.includes("--append");
      for (const arg of invocation.args) if (!arg.startsWith("-")) targets.push([arg, append]);
    }
    if (targets.length === 0) return;
    const output = this.outputOf(invocation, 0) ?? null;
    for (const [target, append] of targets) {
      const key = this.writtenKey(target, invocation.cwd);
      if (key.startsWith("/dev/")) continue;
      if (isUnknown(key) || key.includes("$")) this.#wroteUnnamed = true;
      const before = this.#written.get(key);
      this.setWritten(key, !append || before === undefined ? output : before === null || output === null ? null : before + output);
    }
  }

  /**
   * `cp`/`mv` (followed when it copies one file the line wrote), and any other command that may write the files
   * it names (`dd of=x.sh`, `curl -o x.sh`, `sed -i x.sh`, `ln x y.sh`): remembered in order with the other writes.
   */
  recordOtherWrites(invocation: Invocation): void {
    if (this.dry > 0 || invocation.name === "tee" || writesNoFile(invocation)) return;
    const unnamed = writesUnnamedPlaces(invocation) && this.mayCarryLineText(invocation, true);
    if (unnamed || (this.#mayBeWritten.size > 0 && rewritesWorkTree(invocation))) {
      this.recordUnnamedWrites(invocation);
      return;
    }
    // `sed -n 1p x.sh` reads; `sed -i …`, `perl -pi …` edit in place.
    if (inPlaceEditors.has(invocation.name) && !invocation.args.some((arg) => /^(-[A-Za-z]*i|--in-place)/.test(arg))) {
      // `perl -e 'open F, ">x.sh"; …'`: not an edit in place, but its code may still write the files it spells out.
      if (isInterpreter(invocation.name)) this.recordCodeWrites(invocation);
      return;
    }
    if (invocation.name !== "cp" && invocation.name !== "mv") {
      // An interpreter may be given its code on standard input alone (`python3 <<< 'open(…)'`).
      if (!invocation.args.some((arg) => !arg.startsWith("-") || arg.includes("=")) && !isInterpreter(invocation.name)) return;
      if (!this.mayCarryLineText(invocation)) return;
      this.#unread.add(invocation);
    }
    // `curl -o x.sh … > log`: already in the writes for its redirect.
    if (this.writes.at(-1) !== invocation) this.writes.push(invocation);
    // Whether a copy not followed carries the line's text is asked now, before it counts among the writes itself.
    if ((invocation.name === "cp" || invocation.name === "mv") && this.mayCarryLineText(invocation)) this.#carryingCopies.add(invocation);
    this.noteArgumentTargets(invocation);
    if (invocation.name === "cp" || invocation.name === "mv")
      for (const { destinations } of copiesMadeBy(invocation.args)) for (const destination of destinations) this.noteMayBeWritten(destination, invocation.cwd);
    if (folderCopiers.has(invocation.name)) this.recordFolderCopies(invocation);
  }

  /**
   * `patch < p.diff`, `tar -xf a.tar` of an archive the line built, `base64 -d | tar -x`: a command that writes
   * where the text it is fed says, fed text the line may have made, leaves every file unknown from here on.
   */
  recordUnnamedWrites(invocation: Invocation): void {
    this.#places.leaveEverywhereUnknown(`${invocation.name} wrote files it does not name, from text the line may have made`);
    this.#unread.add(invocation);
    this.#blankets.set(invocation, "everywhere");
    if (this.writes.at(-1) !== invocation) this.writes.push(invocation);
    this.noteArgumentTargets(invocation);
  }

  recordCodeWrites(invocation: Invocation): void {
    this.#codeWriters.add(invocation);
    if (this.writes.at(-1) !== invocation) this.writes.push(invocation);
  }

  /** `echo … > d/x.sh; cp -r d e`: a copy of a folder the line wrote in leaves every path under its destinations unknown. */
  recordFolderCopies(invocation: Invocation): void {
    const folders: string[] = [];
    for (const { source, destinations } of copiesMadeBy(invocation.args)) {
      if (!this.#places.holdsWritten(this.writtenKey(source, invocation.cwd))) continue;
      for (const destination of destinations) folders.push(this.writtenKey(destination, invocation.cwd));
    }
    if (folders.length === 0) return;
    for (const folder of folders) this.#places.leaveFolderUnknown(folder, `${invocation.name} copied there a folder the line wrote in`);
    this.#blankets.set(invocation, folders);
    if (this.writes.at(-1) !== invocation) this.writes.push(invocation);
  }

  /** The files already written that a blanket write covers hold unknown text after it. */
  applyBlanket(invocation: Invocation): void {
    const blanket = this.#blankets.get(invocation);
    if (blanket === undefined) return;
    for (const key of [...this.#written.keys()]) {
      if (blanket === "everywhere" || blanket.some((folder) => key.startsWith(`${folder}/`))) this.setWritten(key, null);
    }
  }

  /** `cp x.sh y.sh`, `mv x.sh y.sh` of a file the line wrote: the copy holds the same text; any other copy is not followed. */
  applyCopy(invocation: Invocation): void {
    const copies = copiesMadeBy(invocation.args);
    const texts = copies.map(({ source }) => this.#written.get(this.writtenKey(source, invocation.cwd)));
    const carrying = this.#carryingCopies.has(invocation);
    if (carrying && (texts.length === 0 || texts.includes(undefined))) this.applyUnread(invocation);
    for (const [index, { destinations }] of copies.entries()) {
      const from = texts[index];
      if (from === undefined && !carrying) continue;
      // A source not followed, of a copy that may carry the line's text, leaves its copies unknown too.
      for (const destination of destinations) this.setWritten(this.writtenKey(destination, invocation.cwd), from ?? null);
    }
  }

  /**
   * Whether what a command not followed writes may hold text from this line or from the network: it reads an
   * input (a pipe, a redirect, one from around it), names a file the line wrote, or is given more than paths
   * and options (`sed -i 's/^/rm -rf ~;/'`, a URL). `gcc -o app main.c`, `go build -o bin/x` write what files
   * already on disk say, which the line cannot change: running `./app` after them is as running it alone.
   */
  mayCarryLineText(invocation: Invocation, trustFiles = false): boolean {
    if (this.#inheritedInput > 0 || this.#execInput) return true;
    if (trustFiles ? this.readsLineInput(invocation) : hasOwnInput(invocation)) return true;
    return invocation.args.some((arg) => {
      const value = arg.slice(arg.indexOf("=") + 1);
      return (
        !pathLike.test(arg) || value.includes("://") || (value !== "" && (this.mayBeWritten(value, invocation.cwd) || this.holdsWritten(value, invocation.cwd)))
      );
    });
  }

  /** Its input is a pipe, text in the line (`<<<`, `<<EOF`), a descriptor, or a file the line may have written: not a file as it was on disk. */
  readsLineInput(invocation: Invocation): boolean {
    if (lastUpstream(invocation) !== undefined) return true;
    return invocation.redirects.some(
      (redirect) =>
        readsInput(redirect) && (redirect.operator !== "<" || isUnknown(redirect.target.text) || this.mayBeWritten(redirect.target.text, invocation.cwd)),
    );
  }

  /** Whether `path` is a folder holding a path the line may have written (`cp -r d e` after `echo … > d/x.sh`). */
  holdsWritten(path: string, cwd: string | undefined): boolean {
    if (!this.#places.mayHoldWritten(path) || path.startsWith("-") || isUnknown(path)) return false;
    return this.#places.holdsWritten(this.writtenKey(path, cwd));
  }

  /** `gdb --args ./a.out`, read after the line: the runner names its program, it did not write it first. */
  ownUnread(key: string): boolean {
    return this.runner !== undefined && this.written.get(key) === null && this.#unreadBy.get(key) === this.runner;
  }

  /** Each path a command not followed may have written (an operand, or an option's value: `of=x.sh`, `--output=x.sh`) holds unknown text. */
  applyUnread(invocation: Invocation): void {
    if (isInterpreter(invocation.name)) this.applyCodeWrites(invocation);
    for (const path of pathsWrittenBy(invocation.args)) {
      if (isUnknown(path)) continue;
      const key = this.writtenKey(path, invocation.cwd);
      if (key.startsWith("/dev/")) continue;
      this.setWritten(key, null);
      this.#unreadBy.set(key, invocation);
    }
  }

  /**
   * `python3 -c 'open("x.sh", "w").write(…)'`: the files the line's interpreter code spells out as written hold
   * text not followed here. Worked out as the writes are applied, so only for lines that run a file after it.
   */
  applyCodeWrites(invocation: Invocation): void {
    for (const { target } of this.codeWritesOf(invocation)) {
      const key = this.writtenKey(target, invocation.cwd);
      if (key.startsWith("/dev/")) continue;
      this.setWritten(key, null);
      this.#unreadBy.set(key, invocation);
    }
  }

  /** The files interpreter code spells out as written: its one-liner or input, or a program file the line wrote (`python3 gen.py`). */
  codeWritesOf(invocation: Invocation): readonly CodeWrite[] {
    const direct = interpreterEffects(invocation, () => stdinTexts(invocation));
    if (direct !== undefined) return direct.writes;
    const file = invocation.args.find((arg) => !arg.startsWith("-"));
    // Read from the files as applied so far: this runs while `written` is worked out.
    const text = file === undefined ? undefined : this.#written.get(this.writtenKey(file, invocation.cwd));
    if (typeof text !== "string") return [];
    const probe: Invocation = { ...invocation, args: [], redirects: [], upstream: [], nested: [] };
    return interpreterEffects(probe, () => [text])?.writes ?? [];
  }

  /** What `cat a b` prints when the line wrote every file it reads: their text; null when one holds unknown text; undefined when one was not written here. */
  catWritten(invocation: Invocation): string | null | undefined {
    if (invocation.name !== "cat" || this.writes.length === 0) return undefined;
    const files = invocation.args.filter((arg) => !arg.startsWith("-"));
    if (files.length === 0) return undefined;
    let text = "";
    for (const file of files) {
      const content = this.written.get(this.writtenKey(file, invocation.cwd));
      if (content === undefined || content === null) return content;
      text += content;
    }
    return text;
  }

  writtenKey(path: string, cwd: string | undefined): string {
    const { home } = this.environment;
    const expanded = path === "~" || path.startsWith("~/") ? home + path.slice(1) : path;
    if (expanded.startsWith("/")) return normalizePath(expanded);
    return cwd === undefined ? expanded : normalizePath(`${cwd}/${expanded}`);
  }

  /** A file the line did not name, run: a problem when a write not followed may have put text there. */
  unknownPlace(file: string, key: string): void {
    const why = this.#places.whyUnknown(key);
    if (why !== undefined) this.problem(`the line runs ${file} after ${why}, so what it holds cannot be known here`);
  }

  /** `echo 'all:;rm -rf ~' > Makefile; make`: a runner run after the line may have written a configuration file it runs code from. */
  configRunner(invocation: Invocation): void {
    const configs = configsRunBy(invocation);
    if (configs === undefined) return;
    const why = this.#places.whyAnyUnknown() ?? this.writtenConfig(configs, invocation.cwd);
    if (why !== undefined) this.problem(`${invocation.name} runs code from its configuration files, run after ${why}, so what it runs is unknown`);
  }

  writtenConfig(configs: ConfigFiles, cwd: string | undefined): string | undefined {
    for (const name of configs.names) {
      // Its last segment first: most lines wrote no file of that name, and that needs no path worked out.
      const written = name.endsWith("/")
        ? this.holdsWritten(name.slice(0, -1), cwd)
        : this.#places.mayHaveWrittenName(lastSegment(name)) && (!name.includes("/") || this.mayBeWritten(name, cwd));
      if (written) return `the line may have written ${name}`;
    }
    const extension = configs.extensions.find((candidate) => this.#places.mayHaveWrittenExtension(candidate));
    return extension === undefined ? undefined : `the line may have written a ${extension} file`;
  }

  /** A file the line wrote earlier, run as a script: its text, or a problem when what it holds is not known. */
  writtenScript(file: string, cwd: string | undefined): [string, string][] {
    if (this.writes.length === 0) return [];
    const key = this.writtenKey(file, cwd);
    const text = this.ownUnread(key) ? undefined : this.written.get(key);
    if (text === undefined) {
      if (this.#wroteUnnamed) this.problem(`the line writes a file whose name is only known when it runs, then runs ${file}, which may be that file`);
      this.unknownPlace(file, key);
      return [];
    }
    if (text === null) {
      this.problem(`the line writes ${file} and runs it, and what it writes there cannot be known here`);
      return [];
    }
    return [[text, file]];
  }

  /** A script file: `/dev/stdin`, a file the line wrote, or `<(…)` with text known in advance (`bash <(echo …)`). */
  fileScripts(file: string, name: string, words: readonly Word[], state: ShellState, invocation: Invocation): [string, string][] {
    // `bash /dev/fd/3 3<<< …`: a file that is an open descriptor is read as the command's input (whichever descriptor: the parser keeps no numbers).
    if (file === "/dev/stdin" || descriptorFile.test(file)) return this.stdinScripts(invocation, name);
    if (!/^[<>]\(/.test(file)) return this.writtenScript(file, invocation.cwd);
    const word = words.find((candidate) => candidate.text === file);
    const output = word?.substitutions.length === 1 ? this.staticOutputOf(word.substitutions[0]!, state) : undefined;
    if (output !== undefined) return [[output, `${name} <(…)`]];
    // `bash <(cat script.sh)` reads a file as it is, like `bash script.sh`; other output is an unknown script.
    if (word?.substitutions.length !== 1 || !/^\s*cat\s+[^|;&<>$`]+$/.test(word.substitutions[0]!)) {
      this.problem(`${name} runs the output of ${file}, and what that prints cannot be known here`);
    }
    return [];
  }

  /** `$(cat <<EOF … EOF)` or `$(echo …)` inside a script argument: its output is known, so use it. */
  substituteStatic(text: string, words: readonly Word[], state: ShellState): string {
    let result = text;
    for (const word of words) {
      for (const substitution of word.substitutions) {
        const output = this.staticOutputOf(substitution, state);
        if (output !== undefined) result = result.replace(`$(${substitution})`, output).replace(`\`${substitution}\``, output);
      }
    }
    return result;
  }

  staticOutputOf(script: string, state: ShellState): string | undefined {
    // `$(echo $(echo $(…)))`: each level is read by parsing the next, so the depth is bounded here.
    // `$()`, `$(true)`, `$(:)`: nothing is printed.
    if (emptyScript.test(script)) return "";
    // `$(which node)`, `$(command -v node)`: a path to that program (only its name matters here).
    // `$(pwd)`: the folder, when it is known.
    if (printsFolder.test(script)) return state.cwd === undefined ? undefined : `${state.cwd}\n`;
    // `$(git rev-parse --show-toplevel)` inside the project: the project's root.
    if (printsTopLevel.test(script)) return this.topLevel(state.cwd);
    const lookup = locatesProgram.exec(script);
    if (lookup !== null) return lookup[1]!;
    // `$(mktemp -d)`: a new entry of the temp folder, named from mktemp's template (its random part differs each time).
    if (makesTemp.test(script)) {
      const folder = state.vars.has("TMPDIR") ? state.vars.get("TMPDIR") : [this.environment.tmp];
      return folder?.length === 1 && !folder[0]!.includes("$") ? `${folder[0]}/tmp.XXXXXXXXXX` : undefined;
    }
    if (this.staticDepth >= maxDepth || !printsText.test(script)) return undefined;
    const { script: parsed } = parseScript(script);
    // One pipeline of a few simple commands: `echo …`, `cat <<EOF`, `cat file-written-here`, then filters.
    if (parsed.length !== 1 || parsed[0]!.length > 8) return undefined;
    let output: string | undefined;
    for (const command of parsed[0]!) {
      if (command.type !== "simple") return undefined;
      this.staticDepth++;
      const argv = this.expandWords(command.words, state)[0] ?? [];
      this.staticDepth--;
      const { name, args, wrappers } = unwrap(argv);
      const probe: Invocation = {
        name,
        args,
        wrappers,
        redirects: command.redirects,
        upstream: [],
        nested: [],
        cwd: state.cwd,
        via: [],
        input: undefined,
        text: "",
        assignments: [],
      };
      let input = output;
      for (const redirect of command.redirects) input = staticInput(redirect) ?? input;
      output = staticOutput(probe, staticInput) ?? this.catWritten(probe) ?? undefined;
      if (output === undefined && input !== undefined && transformNames.has(name)) output = transformText(name, args, input);
      if (output === undefined) return undefined;
    }
    return output;
  }

  /**
   * The argvs a command may run with, enough that every value of every word appears in one: a word with
   * a `for` loop variable gives one argv per value (values of several words are paired, not multiplied).
   * More than `maxVariants` is a problem: the values past it would go unchecked.
   */
  expandWords(words: readonly Word[], state: ShellState): string[][] {
    // Only words that may expand get a list of values; the others stand for themselves.
    let values: (string[][] | undefined)[] | undefined;
    let count = 1;
    // `HOME=/usr; rm -r ~/lib`: `~` is what the line set HOME to.
    const homeSet = state.vars.has("HOME");
    for (let index = 0; index < words.length; index++) {
      const { text, plain } = words[index]!;
      if (!(homeSet && isTilde(text)) && text.charCodeAt(0) !== 126 && (plain === true || !mayExpand(text))) continue;
      values ??= new Array<string[][] | undefined>(words.length);
      const choices = this.expandWord(words[index]!, state);
      values[index] = choices;
      if (choices.length > count) count = choices.length;
    }
    if (values === undefined) return [textsOf(words)];
    if (count > maxVariants) {
      this.problem(`a command runs with more than ${maxVariants} different values (a long loop)`);
      count = maxVariants;
    }
    const variants: string[][] = [];
    for (let variant = 0; variant < count; variant++) {
      const argv: string[] = [];
      for (let index = 0; index < words.length; index++) {
        const choices = values[index];
        if (choices === undefined) argv.push(words[index]!.text);
        else for (const part of choices[variant % choices.length]!) argv.push(part);
      }
      variants.push(argv);
    }
    return variants;
  }

  /**
   * A word's possible values, each as the words it splits into: `$(printf r)m` is `rm` (the output is
   * known), and `$W` with `W='rm -rf ~'` runs `rm -rf ~` when unquoted.
   */
  expandWord(word: Word, state: ShellState): string[][] {
    const written = word.expandable ?? word.text;
    let text = isTilde(written) && state.vars.has("HOME") ? `$HOME${written.slice(1)}` : written;
    // Past a few, substitutions stay unread (unknown values): replacing each in a long word would be quadratic.
    const known = Math.min(word.substitutions.length, maxKnownOutputs);
    for (let index = 0; index < known; index++) {
      const substitution = word.substitutions[index]!;
      const output = this.staticOutputOf(substitution, state);
      // The output is text: a `$` in it is not expanded again.
      if (output === undefined) continue;
      const value = asLiteral(output.replace(/\n+$/, ""));
      text = text.replace(`$(${substitution})`, value).replace(`\`${substitution}\``, value);
    }
    const expanded = mayExpandText(text) ? expand(text, state, this.environment) : [fromLiteral(text)];
    if (expanded === undefined) this.problem(`a word takes more than ${maxVariants} values (a long loop), too many to check each`);
    const values = expanded ?? [unknownText];
    const separators = state.vars.has("IFS") ? ifsOf(valuesOf("IFS", state, this.environment)) : undefined;
    // Quoted, the value is one word; unquoted, it splits on spaces (on IFS, when the line set it), and an
    // empty value is no word at all. Which it is is not kept, so both are read.
    const result: string[][] = [];
    for (const value of values) {
      result.push([value]);
      if (value !== word.text) {
        if (value === "") result.push([]);
        const split = splitOnSpace(value);
        if (split !== undefined) result.push(split);
        if (separators !== undefined) {
          const fields = splitOn(value, separators);
          if (fields !== undefined) result.push(fields);
        }
      }
    }
    return result;
  }

  /** `break N` and `continue N`: the loops they leave end (or go on) from this state too. */
  leaveLoop(name: string, args: readonly string[], state: ShellState): void {
    const levels = Number(args[0] ?? 1);
    const count = Number.isInteger(levels) && levels > 0 ? levels : this.loops.length;
    for (let index = 1; index <= count && index <= this.loops.length; index++) {
      const frame = this.loops[this.loops.length - index]!;
      // `continue 2` ends the inner loop as a `break` would, and goes on with the outer one.
      frame.breaks.push(copy(state));
      if (name === "continue") frame.continues.push(copy(state));
    }
  }

  /** `alias x='…'` (several at once), `unalias x`, `unalias -a`. */
  trackAliases(name: string, args: readonly string[], state: ShellState): void {
    const aliases = new Map(state.aliases);
    for (const arg of args) {
      if (name === "unalias") {
        if (arg === "-a") aliases.clear();
        else aliases.delete(arg);
        continue;
      }
      const equals = arg.indexOf("=");
      if (equals > 0 && !arg.startsWith("-")) aliases.set(arg.slice(0, equals), [arg.slice(equals + 1)]);
    }
    state.aliases = aliases;
  }

  /** Keeps the shell's folder and variables up to date: `cd`, `X=…`, `export X=…`, `for x in …`, `read x`. */
  track(invocation: Invocation | undefined, state: ShellState): void {
    if (!invocation) return;
    const { name, args } = invocation;
    if (name === "") return;
    if (name === "cd" || name === "pushd") {
      // With CDPATH set, `cd build` may go to a `build` in any of its folders.
      const target = args.find((arg) => !arg.startsWith("-"));
      if (state.vars.has("CDPATH") && target !== undefined && !/^(?:\/|\.\.?(?:\/|$)|~)/.test(target)) return void (state.cwd = undefined);
      return void (state.cwd = changeDirectory(state.cwd, args, this.environment));
    }
    if (name === "break" || name === "continue") return this.leaveLoop(name, args, state);
    if (name === "return") return void this.returns.at(-1)?.push(copy(state));
    if (name === "alias" || name === "unalias") return this.trackAliases(name, args, state);
    if (name === "printf") {
      for (const variable of namesSetBy(name, args)) setVar(state, variable, null);
      return;
    }
    if (name === "popd") return void (state.cwd = undefined);
    if (declarations.has(name)) {
      for (const arg of args.filter(isAssignment)) assign(arg, state, this.environment);
      if (name === "export" || args.includes("-x")) state.exported = [...(state.exported ?? []), ...args.filter(isAssignment)];
    } else if (name === "for" && args[1] === "in") {
      setVar(state, args[0]!, args.slice(2));
    } else if (name === "shift") {
      const count = state.vars.get("#");
      if (count === undefined) return;
      const positional: string[] = [];
      for (let index = 1; count !== null && index <= Number(count[0]); index++) positional.push(state.vars.get(String(index))?.[0] ?? "");
      const by = Number(args[0] ?? 1);
      if (count === null || !Number.isInteger(by)) for (const key of positionalNames) setVar(state, key, null);
      else setPositional(state, positional.slice(by));
    } else if (name === "unset") {
      // `unset X`: X is empty from here on (`unset -f f` forgets a function, not a variable).
      if (!args.includes("-f")) for (const arg of args) if (/^[A-Za-z_]\w*$/.test(arg)) setVar(state, arg, [""]);
    } else if (name === "set" && (args[0] === "--" || (args[0] !== undefined && !/^[-+]/.test(args[0])))) {
      setPositional(state, args[0] === "--" ? args.slice(1) : args);
    } else if (name === "read" || name === "mapfile" || name === "readarray") {
      const names = args.filter((candidate) => /^[A-Za-z_]\w*$/.test(candidate));
      for (const arg of names) setVar(state, arg, null);
      // `read -r x y <<< 'rm -rf'`: the first line of a known input, split into the names (the last takes the rest).
      let input: string | undefined;
      for (const redirect of invocation.redirects) input ??= staticInput(redirect);
      if (name !== "read" || input === undefined || names.length === 0 || args.some((arg) => /^-[A-Za-z]*[adnNpt]/.test(arg))) return;
      const fields = (input.split("\n")[0] ?? "").trim().split(/\s+/);
      for (let index = 0; index < names.length; index++) {
        setVar(state, names[index]!, [index === names.length - 1 ? fields.slice(index).join(" ") : (fields[index] ?? "")]);
      }
    }
  }
}

/**
 * Shell commands git itself runs: a `!` alias set on the line (`git -c 'alias.x=!rm -rf build' x`) with
 * the remaining arguments, and the program set for its connection (`GIT_SSH_COMMAND='…' git fetch`).
 */
function gitScripts(invocation: Invocation): [string, string][] {
  const { args, assignments } = invocation;
  const scripts: [string, string][] = [];
  const { index, alias } = gitWords(args);
  if (alias?.startsWith("!")) scripts.push([[alias.slice(1), ...args.slice(index + 1).map(quote)].join(" "), "git alias"]);
  for (const assignment of assignments) {
    if (assignment.startsWith("GIT_SSH_COMMAND=")) scripts.push([assignment.slice("GIT_SSH_COMMAND=".length), "GIT_SSH_COMMAND"]);
  }
  return scripts;
}

const arrayAssignment = /^[A-Za-z_]\w*\[[^\]]*\]\+?=/;

/** A command name that still holds an expansion or a glob after static evaluation: bash decides it at run time. */
function changedPaths(before: ReadonlyMap<string, string | null>, after: ReadonlyMap<string, string | null>): string[] {
  const changed: string[] = [];
  for (const [path, text] of after) if (before.get(path) !== text || !before.has(path)) changed.push(path);
  return changed;
}

function isUnresolvedName(name: string): boolean {
  if (isUnknown(name)) return !arrayAssignment.test(name);
  // `<(echo …)` as a command runs a file of the output: its name, and what it holds, are known only at run time.
  if (name.startsWith("<(") || name.startsWith(">(")) return true;
  for (let index = 0; index < name.length; index++) {
    const code = name.charCodeAt(index);
    if (code < 128 && runTimeName[code] === 1) {
      if (name === "[" || name === "[[") return false; // `test`
      if (name.includes("]=") || name.includes("]+=")) return !arrayAssignment.test(name); // `a[$i]=x` sets an array element
      return true;
    }
  }
  return false;
}

// `$`, backtick, `*`, `?`, `[`: a name with one of these is decided at run time.
const runTimeName = new Uint8Array(128);
for (const char of "$`*?[") runTimeName[char.charCodeAt(0)] = 1;

const descriptorFile = /^\/(?:dev\/fd|proc\/[^/]+\/fd)\/[^/]+$/;

/**
 * `xargs sh -c 'rm -rf "$0"' <<< ~`: the words xargs adds after the script's own, or puts where its
 * placeholder is; unknown when its input is.
 */
function wordsWithInput(invocation: Invocation, given: readonly string[]): string[] {
  const { placeholder } = invocation;
  const inputs = knownInputs(invocation, placeholder === undefined ? "words" : "lines");
  if (placeholder === undefined) return [...given, ...(inputs ?? [unknownText])];
  const only = inputs?.length === 1 ? inputs[0]! : undefined;
  return given.map((word) => (!word.includes(placeholder) ? word : only === undefined ? unknownText : word.replaceAll(placeholder, only)));
}

/** `done < f`, `fi <<< x`: the compound command's input is redirected where it closes. */
function closerReadsInput(closer: Pipeline | undefined): boolean {
  const first = closer?.[0];
  return first !== undefined && first.type !== "function" && first.redirects.some(readsInput);
}

/** `< f`, `<<< x`, `<<EOF`, `<&3`, `<> f`: the command's standard input (or another descriptor's) is opened for reading. */
/** A redirect of the invocation's input from bash's network paths (`< /dev/tcp/host/port`). */
function readsNetwork(invocation: Invocation): boolean {
  return invocation.redirects.some((redirect) => readsInput(redirect) && /^\/dev\/(?:tcp|udp)\//.test(redirect.target.text));
}

function readsInput(redirect: Redirect): boolean {
  return redirect.operator.startsWith("<");
}

/** The command reads an input of its own: a pipe from its pipeline, or a redirect. */
function hasOwnInput(invocation: Invocation): boolean {
  return lastUpstream(invocation) !== undefined || invocation.redirects.some(readsInput);
}

/** The command just before this one in its pipeline (same level, not inside its substitutions). */
function lastUpstream(invocation: Invocation): Invocation | undefined {
  for (let index = invocation.upstream.length - 1; index >= 0; index--) {
    const candidate = invocation.upstream[index]!;
    if (candidate.via.length === invocation.via.length) return candidate;
  }
  return undefined;
}

/** `cat script.sh | sh`, `< file`: a file read as it is, like `sh script.sh` (files the line did not write are not read). */
function readsFiles(invocation: Invocation): boolean {
  return (
    (invocation.name === "cat" && invocation.args.some((arg) => !arg.startsWith("-"))) || invocation.redirects.some((redirect) => redirect.operator === "<")
  );
}

/**
 * Commands that never change the content of a file they name: what the line wrote stays as it was after them.
 * Any other command given a path may have changed that file in a way not followed here.
 */
const nonWriters = new Set([
  ...["cat", "grep", "egrep", "fgrep", "rg", "ls", "head", "tail", "wc", "diff", "cmp", "file", "stat", "less", "more"],
  ...["chmod", "chown", "chgrp", "mkdir", "rmdir", "rm", "touch", "cd", "pushd", "popd", "pwd", "test", "[", "[[", "echo"],
  ...["printf", "true", "false", ":", "which", "command", "type", "hash", "export", "local", "declare", "readonly", "set"],
  ...["unset", "shift", "exit", "return", "source", ".", "eval", "exec", "read", "sleep", "wait", "shellcheck", "basename"],
  ...["dirname", "realpath", "readlink", "md5sum", "sha256sum", "od", "hexdump", "jq", "cut", "tr", "seq", "date", "expr"],
  // The words of a loop's head and end (`for f in *.log`), read as commands of their own.
  ...["for", "select", "done", ""],
  ...shells,
]);

/** The paths a command not followed names: each operand and option value (`of=x.sh`, `--output=x.sh`). */
function pathsNamedBy(args: readonly string[]): string[] {
  return args
    .filter((arg) => !arg.startsWith("-") || arg.includes("="))
    .map((arg) => arg.slice(arg.indexOf("=") + 1))
    .filter((value) => value !== "");
}

/**
 * The paths a command not followed may write: those it names and, as any of them may be a folder
 * (`install -t d x`, `ln x d/`, `rsync x d/`), each other one's name inside it. Past a few operands only the
 * first and the last are taken for folders (`-t d …`, `… d/`): the pairs would grow as the square of a
 * hostile line's operands.
 */
export function pathsWrittenBy(args: readonly string[]): string[] {
  const named = pathsNamedBy(args);
  if (named.length < 2) return named;
  const folders = named.length > maxFolderOperands ? [named[0]!, named.at(-1)!] : named;
  const inside = folders.flatMap((folder) => named.filter((other) => other !== folder).map((other) => `${folder}/${lastSegment(other)}`));
  return [...named, ...inside];
}

const maxFolderOperands = 16;

// cp's and mv's options that take a value as the next word (`-t dir`, `-S .bak`).
const copyValuedOptions = /^-[A-Za-z]*[tS]$/;

/**
 * Where `cp`/`mv` put each source: `cp a b` makes `b`, or `b/a` when `b` is a folder (not known here: both);
 * `cp a b dir`, `cp a dir/` and `cp -t dir a` put each source in the folder under its own name.
 */
function copiesMadeBy(args: readonly string[]): { source: string; destinations: string[] }[] {
  const operands: string[] = [];
  let folder: string | undefined;
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    if (arg.startsWith("--target-directory=")) folder = arg.slice("--target-directory=".length);
    else if (/^-[A-Za-z]*t./.test(arg) && !arg.startsWith("--")) folder = arg.slice(arg.indexOf("t") + 1);
    else if (copyValuedOptions.test(arg)) {
      const value = args[++index];
      if (arg.endsWith("t")) folder = value;
    } else if (!arg.startsWith("-")) operands.push(arg);
  }
  if (folder !== undefined) return operands.map((source) => ({ source, destinations: [`${folder}/${lastSegment(source)}`] }));
  if (operands.length < 2) return [];
  const target = operands.at(-1)!;
  const sources = operands.slice(0, -1);
  const intoFolder = sources.length > 1 || target.endsWith("/");
  return sources.map((source) => ({ source, destinations: intoFolder ? [`${target}/${lastSegment(source)}`] : [target, `${target}/${lastSegment(source)}`] }));
}

function lastSegment(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

/** An argument that is only a path or an option (`-o`, `--out=dist/app`, `./cmd/x`, `main.c`): no text of its own to write. */
const pathLike = /^[\w./+@%:,=~^-]*$/;

// `git diff`, `git commit -m "…"`: subcommands that change no file in the working tree (what they print goes where redirects say).
const gitKeepsWorkTree = new Set([
  "diff",
  "log",
  "status",
  "show",
  "rev-parse",
  "ls-files",
  "grep",
  "blame",
  "describe",
  "shortlog",
  "rev-list",
  "cat-file",
  "add",
  "commit",
  "push",
  "fetch",
  "tag",
]);
// find's own actions that write a file (`-exec` commands are read as commands of their own).
const findWriters = /^-f(print0?|printf|ls)$/;

/** Commands that change no file they name: `cat`, `git diff`, `find . -name x` (not `-fprint f`), … */
export function writesNoFile(invocation: Invocation): boolean {
  const { name, args } = invocation;
  if (nonWriters.has(name)) return true;
  if (name === "git")
    return (
      gitKeepsWorkTree.has(args.find((arg) => !arg.startsWith("-")) ?? "") && !args.includes("--output") && !args.some((arg) => arg.startsWith("--output="))
    );
  return name === "find" && !args.some((arg) => findWriters.test(arg));
}

const inPlaceEditors = new Set(["sed", "perl", "ruby"]);

// Commands that copy folders (`cp -r d e`, `rsync -a d/ e/`): where they put a folder the line wrote in is followed as unknown.
const folderCopiers = new Set(["cp", "mv", "rsync", "ditto", "scp", "install"]);

/** `find … -exec bash {} \;`, `… | xargs sh`: a shell or program run on a file named by its input, only known at run time. */
function runsNamedAtRunTime(invocation: Invocation): boolean {
  const { name, args } = invocation;
  if (invocation.input === "find" && name.includes("{}")) return true;
  const fromInput = invocation.input === "find" ? args.some((arg) => arg.includes("{}")) : invocation.wrappers.some((wrapper) => inputWrappers.has(wrapper));
  if (!fromInput || (!isShell(name) && !sameShell.has(name) && !isInterpreter(name))) return false;
  // `find … -exec sh -c '…' _ {} \;`: the code is given, the name is only its argument.
  return !args.some((arg) => isCommandFlag(arg) || codeFlags.test(arg));
}

/** `>`, `>|`, `>>`, `&>`, `&>>`: the redirects that write a file. */
function writesFile(redirect: Redirect): boolean {
  const { operator } = redirect;
  return operator === ">" || operator === ">|" || operator === "&>" || operator === ">>" || operator === "&>>";
}

/** `~` or `~/…` (not `~user`). */
function isTilde(text: string): boolean {
  return text.charCodeAt(0) === 126 && (text.length === 1 || text.charCodeAt(1) === 47);
}

/**
 * `text.includes("[") || text.includes("${") || text.includes("$((")` (this runs for every word). Native
 * searches, not a loop over the characters: on the words the lexer builds (slices and concatenations of the
 * line) a `charCodeAt` loop measured several times slower.
 */
function mayHoldCode(text: string): boolean {
  if (text.includes("[")) return true;
  for (let dollar = text.indexOf("$"); dollar !== -1; dollar = text.indexOf("$", dollar + 1)) {
    const next = text.charCodeAt(dollar + 1);
    if (next === 123 || (next === 40 && text.charCodeAt(dollar + 2) === 40)) return true;
  }
  return false;
}

/** Whether a word holds a `$` or a backtick. */
function mayExpand(text: string): boolean {
  return text.includes("$") || text.includes("`");
}

/** `value.split(/\s+/).filter(Boolean)` when `value` holds whitespace (`\s`, as JavaScript reads it), else undefined. */
function splitOnSpace(value: string): string[] | undefined {
  let parts: string[] | undefined;
  let start = 0;
  for (let index = 0; index <= value.length; index++) {
    if (index < value.length && !isSpace(value.charCodeAt(index))) continue;
    if (index < value.length) parts ??= [];
    if (index > start && parts !== undefined) parts.push(value.slice(start, index));
    start = index + 1;
  }
  return parts;
}

/** The characters of the IFS values that are not whitespace (those split as `splitOnSpace` does); undefined when none or unknown. */
function ifsOf(values: readonly string[] | undefined): string | undefined {
  if (values === undefined) return undefined;
  const chars = values.join("").replace(/\s/g, "");
  return chars === "" ? undefined : chars;
}

/** `value` split at any of `separators` (and at whitespace), when it holds one; else undefined. */
function splitOn(value: string, separators: string): string[] | undefined {
  let found = false;
  for (const char of separators) if (value.includes(char)) found = true;
  if (!found) return undefined;
  const fields: string[] = [];
  let field = "";
  for (const char of value) {
    if (separators.includes(char) || isSpace(char.charCodeAt(0))) {
      if (field !== "") fields.push(field);
      field = "";
    } else field += char;
  }
  if (field !== "") fields.push(field);
  return fields;
}

/** The characters of `\s`. */
function isSpace(code: number): boolean {
  if (code <= 32) return code === 32 || (code >= 9 && code <= 13);
  if (code < 160) return false;
  return (
    code === 160 ||
    code === 5760 ||
    (code >= 8192 && code <= 8202) ||
    code === 8232 ||
    code === 8233 ||
    code === 8239 ||
    code === 8287 ||
    code === 12288 ||
    code === 65279
  );
}

/** `argv.some(isUnknown)` without a call through `some` per word (asked of every argv). */
function someUnknown(argv: readonly string[]): boolean {
  for (let index = 0; index < argv.length; index++) if (isUnknown(argv[index]!)) return true;
  return false;
}

function textsOf(words: readonly Word[]): string[] {
  const texts = new Array<string>(words.length);
  for (let index = 0; index < words.length; index++) texts[index] = words[index]!.text;
  return texts;
}

/** `target.push(...items.slice(start))` without the copy. */
function appendFrom<T>(target: T[], items: readonly T[], start: number): void {
  for (let index = start; index < items.length; index++) target.push(items[index]!);
}

/** `target.push(...items)` without a spread call (most lists here are empty or short). */
function append<T>(target: T[], items: readonly T[]): void {
  for (let index = 0; index < items.length; index++) target.push(items[index]!);
}

/** The commands `find … -exec cmd … {} ;` runs (also `-execdir`, `-ok`, `-okdir`). */
function findExecCommands(invocation: Invocation): string[][] {
  if (invocation.name !== "find") return [];
  const commands: string[][] = [];
  const { args } = invocation;
  for (let index = 0; index < args.length; index++) {
    if (!/^-(exec|execdir|ok|okdir)$/.test(args[index]!)) continue;
    let end = index + 1;
    while (end < args.length && args[end] !== ";" && args[end] !== "+") end++;
    commands.push(args.slice(index + 1, end));
    index = end;
  }
  return commands;
}

function quote(part: string): string {
  return /^[\w@%+=:,./-]+$/.test(part) ? part : `'${part.replaceAll("'", `'\\''`)}'`;
}

/** `-c`, or a cluster that holds it (`-lc`, `-ec`). */
export function isCommandFlag(arg: string): boolean {
  return /^-[A-Za-z]*c[A-Za-z]*$/.test(arg);
}

/** Whether a `NAME=value` word had a `$(…)` or backtick whose output is not known: the value is only known at run time. */
function substitutedAtRunTime(name: string, value: string, words: readonly Word[]): boolean {
  const word = words.find(
    (candidate) => candidate.text.startsWith(`${name}=`) || candidate.text.startsWith(`${name}+=`) || candidate.text.includes(`${name}=`),
  );
  if (word === undefined) return false;
  return word.substitutions.some((inner) => value.includes(`$(${inner})`) || value.includes(`\`${inner}\``));
}
