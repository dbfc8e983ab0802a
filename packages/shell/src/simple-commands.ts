import { parseScript, type Command, type Redirect, type Script, type Word } from "./parse.js";

/** Every simple command of a line, as text, and why the line cannot be read with confidence. */
export interface SimpleCommands {
  /**
   * One entry per simple command, in source order, nested ones included: its words with quotes removed,
   * joined by one space, then its redirects (`git status > out.txt`). Leading whitespace is gone.
   */
  commands: string[];
  /** Why bash would refuse the line or a script inside it, or why it was not read to the end. */
  problem?: string;
}

// As deep as `analyze` follows nested scripts; deeper lines are reported, never silently cut.
const maxDepth = 8;
const maxCommands = 5_000;
// What in a heredoc body with an unquoted delimiter runs a command.
const substitutionStart = /\$\(|`/;

/**
 * The simple commands of a command line, read syntactically: every segment between `;`, `&&`, `||`,
 * `&`, `|`, `|&` and newlines, and every command inside `( … )`, `{ …; }`, function bodies, `$( … )`,
 * backticks, `<( … )`, `>( … )` (in words and in redirect targets) and in the substitutions of a heredoc
 * whose delimiter is unquoted. Quoted text is never split: `git commit -m "a; rm"` is one command.
 * Nothing is unwrapped here (`sudo rm` is the one command `sudo rm`): `analyze` does that.
 */
export function simpleCommands(source: string): SimpleCommands {
  const reader = new Reader();
  reader.script(source, 0);
  return reader.problem === undefined ? { commands: reader.commands } : { commands: reader.commands, problem: reader.problem };
}

class Reader {
  commands: string[] = [];
  problem: string | undefined;

  script(source: string, depth: number): void {
    if (depth > maxDepth) {
      this.problem ??= `scripts are nested more than ${maxDepth} levels deep`;
      return;
    }
    const parsed = parseScript(source);
    if (parsed.problem !== undefined) this.problem ??= parsed.problem;
    this.list(parsed.script, depth);
  }

  list(script: Script, depth: number): void {
    for (const pipeline of script) for (const command of pipeline) this.command(command, depth);
  }

  command(command: Command, depth: number): void {
    if (command.type === "function") return this.command(command.body, depth);
    if (command.type === "group") {
      this.list(command.script, depth);
      for (const redirect of command.redirects) this.redirect(redirect, depth);
      return;
    }
    if (command.words.length === 0 && command.redirects.length === 0) return;
    if (this.commands.length >= maxCommands) {
      this.problem ??= `the line has more than ${maxCommands} commands`;
      return;
    }
    let text = command.words.map((word) => word.text).join(" ");
    for (const redirect of command.redirects) text += `${text === "" ? "" : " "}${redirect.operator} ${redirect.target.text}`;
    this.commands.push(text);
    for (const word of command.words) this.word(word, depth);
    for (const redirect of command.redirects) this.redirect(redirect, depth);
  }

  word(word: Word, depth: number): void {
    for (const inner of word.substitutions) this.script(inner, depth + 1);
  }

  redirect(redirect: Redirect, depth: number): void {
    this.word(redirect.target, depth);
    // An unquoted delimiter (`<<EOF`) expands `$( … )` and backticks in the body; a quoted one does not.
    if (redirect.body === undefined || redirect.target.plain !== true || !substitutionStart.test(redirect.body)) return;
    const body = parseScript(redirect.body);
    if (body.problem !== undefined) this.problem ??= `a heredoc body: ${body.problem}`;
    this.substitutionsIn(body.script, depth + 1);
  }

  /** Only the substitutions of a heredoc body run: its words are text, not commands. */
  substitutionsIn(script: Script, depth: number): void {
    for (const pipeline of script)
      for (const command of pipeline) {
        if (command.type === "function") this.substitutionsIn([[command.body]], depth);
        else if (command.type === "group") this.substitutionsIn(command.script, depth);
        else for (const word of command.words) this.word(word, depth);
      }
  }
}
