import { gitWords, type Invocation } from "@toolgate/shell";
import { copyFrom, show, type Facts, type Rule } from "./rule.js";

/** `git [global options] <subcommand> <args>`, seen through `-C dir`, `-c key=value`, `--git-dir=…`. */
interface GitCommand {
  subcommand: string;
  args: string[];
  invocation: Invocation;
}

function gitCommand(invocation: Invocation): GitCommand | undefined {
  if (invocation.name !== "git") return undefined;
  const { args } = invocation;
  const { index, alias } = gitWords(args);
  // A `!` alias is a shell command, read as a nested script; any other alias stands for its words.
  const words = alias === undefined || alias.startsWith("!") ? copyFrom(args, index) : [...alias.split(/\s+/).filter(Boolean), ...copyFrom(args, index + 1)];
  const subcommand = words[0];
  return subcommand === undefined ? undefined : { subcommand: subcommand.toLowerCase(), args: words.slice(1), invocation };
}

/** A subcommand's words read the way git reads them. */
interface GitArgs {
  /** Options in order: `-f` as `f`, `--force` as `--force` (as written: it may be an abbreviation). */
  options: string[];
  positionals: string[];
  /** Words after `--`. */
  paths: string[];
}

interface ArgSpec {
  /** Short options that take a value: the rest of the cluster, or the next word (`-b name`, `-bname`). */
  shortValued?: string;
  /** Long options that take a value as the next word (`--source HEAD`). */
  longValued?: readonly string[];
  /** Long options whose value is optional: the next word is read as the value only when it is one of these. */
  longOptional?: Readonly<Record<string, readonly string[]>>;
}

function parseArgs(args: readonly string[], spec: ArgSpec = {}): GitArgs {
  const parsed: GitArgs = { options: [], positionals: [], paths: [] };
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    if (arg === "--") {
      parsed.paths.push(...args.slice(index + 1));
      break;
    }
    if (arg.startsWith("--")) {
      const name = arg.split("=")[0]!;
      parsed.options.push(name);
      if (!arg.includes("=") && (spec.longValued ?? []).some((option) => isSpelling(name, option))) index++;
      else if (!arg.includes("=") && spec.longOptional?.[name]?.includes(args[index + 1] ?? "")) index++;
    } else if (arg.startsWith("-") && arg.length > 1) {
      for (let letter = 1; letter < arg.length; letter++) {
        parsed.options.push(arg[letter]!);
        if ((spec.shortValued ?? "").includes(arg[letter]!)) {
          if (letter === arg.length - 1) index++;
          break;
        }
      }
    } else {
      parsed.positionals.push(arg);
    }
  }
  return parsed;
}

/** git takes any unambiguous prefix of a long option (`--hard` as `--ha`): an ambiguous one is read as a match. */
function isSpelling(written: string, option: string): boolean {
  return written === option || (written.length >= 4 && option.startsWith(written));
}

/** Whether an option is on at the end: `--no-x` after `--x` turns it off again. */
function isOn(parsed: GitArgs, long: string, short?: string): boolean {
  return optionState(parsed, long, short) === "on";
}

function optionState(parsed: GitArgs, long: string, short?: string): "on" | "off" | "unset" {
  let state: "on" | "off" | "unset" = "unset";
  for (const option of parsed.options) {
    if (option === short || (option.startsWith("--") && isSpelling(option, long))) state = "on";
    else if (option === `--no-${long.slice(2)}`) state = "off";
  }
  return state;
}

const gitNames = ["git"];
const emptyArgs: GitArgs = { options: [], positionals: [], paths: [] };

// Every git rule reads the same git commands: read them once per decision.
const sharedKey = "git commands";

function gitCommands(facts: Facts): readonly GitCommand[] {
  const known = facts.shared.get(sharedKey) as readonly GitCommand[] | undefined;
  if (known !== undefined) return known;
  const commands: GitCommand[] = [];
  for (const invocation of facts.named(gitNames)) {
    const git = gitCommand(invocation);
    if (git !== undefined) commands.push(git);
  }
  facts.shared.set(sharedKey, commands);
  return commands;
}

function gitRule(id: string, summary: string, check: (git: GitCommand) => string | undefined): Rule {
  return {
    id,
    pack: "git",
    summary,
    check: (facts: Facts) => {
      for (const git of gitCommands(facts)) {
        const message = check(git);
        if (message !== undefined) return message;
      }
      return undefined;
    },
  };
}

const networkSubcommands = new Set(["fetch", "pull", "push", "clone", "ls-remote", "submodule", "fetch-pack", "send-pack"]);

function usesNetwork(subcommand: string, args: readonly string[]): boolean {
  if (subcommand === "remote") return args.some((arg) => arg === "update" || arg === "prune" || arg === "show");
  if (subcommand === "archive") return args.some((arg) => arg.startsWith("--remote"));
  return networkSubcommands.has(subcommand);
}
const sshVariables = /^(GIT_SSH|GIT_SSH_COMMAND|GIT_SSH_VARIANT|GIT_CONFIG_PARAMETERS|GIT_CONFIG_COUNT)=/;

function setsSshProgram(invocation: Invocation): boolean {
  const { args } = invocation;
  const config = args.some((arg, index) => (arg === "-c" && /^core\.sshcommand=/i.test(args[index + 1] ?? "")) || /^-ccore\.sshcommand=/i.test(arg));
  return config || invocation.assignments.some((assignment) => sshVariables.test(assignment));
}

const stashFirst = "Run `git stash` first to keep the changes (and `git stash pop` to bring them back), or ask the user.";

function asksForHelp(parsed: GitArgs): boolean {
  return parsed.options.some((option) => option === "h" || option === "--help" || option === "--version");
}

export const gitRules: readonly Rule[] = [
  gitRule("git-reset-hard", "`git reset --hard` / `--merge`", ({ subcommand, args, invocation }) => {
    if (subcommand !== "reset") return undefined;
    const parsed = parseArgs(args);
    return isOn(parsed, "--hard") || isOn(parsed, "--merge")
      ? `refusing ${show(invocation)}: it throws away every uncommitted change for good. ${stashFirst} \`git reset --soft\` or \`--mixed\` move the branch and keep the files.`
      : undefined;
  }),
  gitRule(
    "git-checkout-discard",
    "`git checkout -- <paths>`, `git checkout .`, `git checkout <ref> <paths>`, `git checkout -f`",
    ({ subcommand, args, invocation }) => {
      if (subcommand !== "checkout") return undefined;
      const parsed = parseArgs(args, {
        shortValued: "bBU",
        longValued: ["--orphan", "--conflict", "--unified", "--inter-hunk-context"],
        // Their value is optional: `--track main file.txt` names a ref and a path, `--track direct main` a mode and a ref.
        longOptional: { "--track": ["direct", "inherit"], "--recurse-submodules": ["checkout", "on-demand", "yes", "no"] },
      });
      if (asksForHelp(parsed)) return undefined;
      const force = isOn(parsed, "--force", "f");
      const creates = parsed.options.some((option) => option === "b" || option === "B" || isSpelling(option, "--orphan"));
      if (creates && !force) return undefined;
      const fromFile = parsed.options.some((option) => isSpelling(option, "--pathspec-from-file"));
      const discards = force || fromFile || parsed.paths.length > 0 || parsed.positionals.includes(".") || parsed.positionals.length >= 2;
      return discards
        ? `refusing ${show(invocation)}: it overwrites uncommitted changes in the work tree, and they cannot be recovered. ${stashFirst} To switch branches, use \`git switch <branch>\`.`
        : undefined;
    },
  ),
  gitRule("git-restore-worktree", "`git restore <paths>` without `--staged` (discards changes)", ({ subcommand, args, invocation }) => {
    if (subcommand !== "restore") return undefined;
    const parsed = parseArgs(args, { shortValued: "sU", longValued: ["--source", "--conflict", "--unified", "--inter-hunk-context", "--pathspec-from-file"] });
    if (asksForHelp(parsed)) return undefined;
    const patch = isOn(parsed, "--patch", "p");
    const fromFile = parsed.options.some((option) => isSpelling(option, "--pathspec-from-file"));
    if (parsed.positionals.length === 0 && parsed.paths.length === 0 && !fromFile && !patch) return undefined; // restores nothing
    // Without either option git restores the work tree; `--staged` alone restores only the index.
    const staged = isOn(parsed, "--staged", "S");
    const worktree = optionState(parsed, "--worktree", "W");
    return worktree === "off" || (worktree === "unset" && staged)
      ? undefined
      : `refusing ${show(invocation)}: it discards uncommitted changes to those files for good. Use \`git restore --staged <paths>\` to only unstage them. ${stashFirst}`;
  }),
  gitRule("git-switch-discard", "`git switch --discard-changes` / `-f`", ({ subcommand, args, invocation }) => {
    if (subcommand !== "switch") return undefined;
    const parsed = parseArgs(args, { shortValued: "cC", longValued: ["--orphan", "--conflict"] });
    return isOn(parsed, "--discard-changes") || isOn(parsed, "--force", "f")
      ? `refusing ${show(invocation)}: it throws away uncommitted changes. ${stashFirst} Then switch without --discard-changes.`
      : undefined;
  }),
  gitRule("git-clean-force", "`git clean -f` (without `-n`/`--dry-run`)", ({ subcommand, args, invocation }) => {
    if (subcommand !== "clean") return undefined;
    const parsed = parseArgs(args, { shortValued: "e", longValued: ["--exclude"] });
    return isOn(parsed, "--force", "f") && !isOn(parsed, "--dry-run", "n")
      ? `refusing ${show(invocation)}: it deletes untracked files, which no commit holds, so they are gone for good. Run \`git clean -n\` to list them, then delete specific files inside the project with rm.`
      : undefined;
  }),
  gitRule(
    "git-push-force",
    "`git push --force` / `-f` / `+refspec` / `--mirror` without `--force-with-lease`; deleting remote branches",
    ({ subcommand, args, invocation }) => {
      if (subcommand !== "push") return undefined;
      const parsed = parseArgs(args, { shortValued: "o", longValued: ["--repo", "--receive-pack", "--exec", "--push-option"] });
      const force = parsed.options.some(
        (option) => option === "f" || (option !== "--force-with-lease" && option !== "--force-if-includes" && isSpelling(option, "--force")),
      );
      const lease = parsed.options.some((option) => option.length >= 9 && "--force-with-lease".startsWith(option));
      const refspecs = [...parsed.positionals.slice(1), ...parsed.paths];
      const plusRefspec = refspecs.some((arg) => arg.startsWith("+") && arg.length > 1);
      if (force || isOn(parsed, "--mirror") || (plusRefspec && !lease)) {
        return `refusing ${show(invocation)}: a force push overwrites the remote branch and can destroy other people's commits. Use \`git push --force-with-lease\`, which refuses when the remote has commits you have not seen, or ask the user.`;
      }
      const deletes = isOn(parsed, "--delete", "d") || refspecs.some((arg) => arg.startsWith(":") && arg.length > 1);
      return deletes
        ? `refusing ${show(invocation)}: it deletes a branch on the remote, which other people may still use. Ask the user to delete remote branches.`
        : undefined;
    },
  ),
  gitRule("git-branch-force-delete", "`git branch -D` / `--delete --force`, `-M`/`-C` over an existing branch", ({ subcommand, args, invocation }) => {
    if (subcommand !== "branch") return undefined;
    const parsed = parseArgs(args, {
      shortValued: "u",
      longValued: ["--set-upstream-to", "--contains", "--no-contains", "--merged", "--no-merged", "--points-at", "--format", "--sort"],
    });
    const force = isOn(parsed, "--force", "f");
    const forceDelete =
      parsed.options.some((option) => option === "D" || option === "M" || option === "C") ||
      (isOn(parsed, "--delete", "d") && force) ||
      ((isOn(parsed, "--move", "m") || isOn(parsed, "--copy", "c")) && force);
    return forceDelete
      ? `refusing ${show(invocation)}: it deletes or overwrites a branch even when its commits are merged nowhere else. Use \`git branch -d <branch>\` (refuses to delete unmerged work) or \`git branch -m\` (refuses to overwrite a branch).`
      : undefined;
  }),
  gitRule("git-rm-force", "`git rm -f` (without `--cached`)", ({ subcommand, args, invocation }) => {
    if (subcommand !== "rm") return undefined;
    const parsed = parseArgs(args);
    return isOn(parsed, "--force", "f") && !isOn(parsed, "--cached")
      ? `refusing ${show(invocation)}: --force deletes files even with uncommitted changes, which are then lost. Use \`git rm --cached <paths>\` to stop tracking them, or commit or stash the changes first.`
      : undefined;
  }),
  gitRule("git-tag-delete", "`git tag -d` / `--delete`", ({ subcommand, args, invocation }) =>
    subcommand === "tag" &&
    isOn(
      parseArgs(args, { shortValued: "mFu", longValued: ["--message", "--file", "--local-user", "--sort", "--format", "--contains", "--points-at"] }),
      "--delete",
      "d",
    )
      ? `refusing ${show(invocation)}: it deletes a tag, which releases and other people may rely on. Ask the user to delete tags.`
      : undefined,
  ),
  gitRule("git-abort", "`git rebase/merge/cherry-pick/revert/am --abort` (discards conflict resolutions)", ({ subcommand, args, invocation }) =>
    ["rebase", "merge", "cherry-pick", "revert", "am"].includes(subcommand) && isOn(parseArgs(args), "--abort")
      ? `refusing ${show(invocation)}: it throws away the conflict resolutions made so far. Finish with \`git ${subcommand} --continue\`, or ask the user whether to abort.`
      : undefined,
  ),
  gitRule("git-ssh-command", "a program run for git's network connection (`GIT_SSH_COMMAND=…`, `-c core.sshCommand=…`)", ({ subcommand, args, invocation }) =>
    usesNetwork(subcommand, args) && setsSshProgram(invocation)
      ? `refusing ${show(invocation)}: it makes git run another program for its network connection, which can do anything. Use the configured SSH setup, or ask the user.`
      : undefined,
  ),
  gitRule("git-stash-destroy", "`git stash drop` / `git stash clear`", ({ subcommand, args, invocation }) =>
    subcommand === "stash" && (args[0] === "drop" || args[0] === "clear")
      ? `refusing ${show(invocation)}: stashed work is deleted and hard to recover. Leave the stash in place (\`git stash list\` shows it), or apply it with \`git stash pop\`.`
      : undefined,
  ),
  gitRule(
    "git-history-destroy",
    "`git reflog expire/delete`, `git gc --prune=now`, `git filter-branch`/`filter-repo`, `git update-ref -d`, `git read-tree --reset -u`, `git worktree remove --force`",
    ({ subcommand, args, invocation }) => {
      const parsed = subcommand === "update-ref" || subcommand === "read-tree" ? parseArgs(args) : emptyArgs;
      const destroys =
        (subcommand === "reflog" && (args[0] === "expire" || args[0] === "delete")) ||
        (subcommand === "gc" && args.some((arg) => /^--prune=(now|all)$/.test(arg))) ||
        (subcommand === "prune" && args.some((arg) => /^--expire(=now)?$/.test(arg))) ||
        subcommand === "filter-branch" ||
        subcommand === "filter-repo" ||
        (subcommand === "update-ref" && isOn(parsed, "--delete", "d")) ||
        (subcommand === "read-tree" && isOn(parsed, "--reset") && parsed.options.includes("u")) ||
        (subcommand === "worktree" && args[0] === "remove" && isOn(parseArgs(args.slice(1)), "--force", "f"));
      return destroys
        ? `refusing ${show(invocation)}: it rewrites or deletes git history and the safety nets that recover it (reflog, unreachable commits, worktrees). Ask the user to run it if it is really needed.`
        : undefined;
    },
  ),
];
