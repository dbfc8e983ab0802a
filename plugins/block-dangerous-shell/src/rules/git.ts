import type { Invocation } from "../shell/invocations.js";
import { firstMessage, hasFlag, positionals, show, type Facts, type Rule } from "./rule.js";

/** `git [global options] <subcommand> <args>`, seen through `-C dir`, `-c key=value`, `--git-dir=…`. */
interface GitCommand {
  subcommand: string;
  args: string[];
  invocation: Invocation;
}

const globalOptionsWithValue = new Set(["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--exec-path", "--config-env", "--super-prefix"]);

function gitCommand(invocation: Invocation): GitCommand | undefined {
  if (invocation.name !== "git") return undefined;
  const { args } = invocation;
  let index = 0;
  while (index < args.length && args[index]!.startsWith("-")) index += globalOptionsWithValue.has(args[index]!) ? 2 : 1;
  const subcommand = args[index];
  return subcommand === undefined ? undefined : { subcommand, args: args.slice(index + 1), invocation };
}

function gitRule(id: string, summary: string, check: (git: GitCommand) => string | undefined): Rule {
  return {
    id,
    pack: "git",
    summary,
    check: (facts: Facts) =>
      firstMessage(facts.named(["git"]), (invocation) => {
        const git = gitCommand(invocation);
        if (git === undefined || hasFlag(git.args, undefined, "--help")) return undefined;
        return check(git);
      }),
  };
}

const stashFirst = "Run `git stash` first to keep the changes (and `git stash pop` to bring them back), or ask the user.";

export const gitRules: readonly Rule[] = [
  gitRule("git-reset-hard", "`git reset --hard` / `--merge`", ({ subcommand, args, invocation }) =>
    subcommand === "reset" && hasFlag(args, undefined, "--hard", "--merge")
      ? `refusing ${show(invocation)}: it throws away every uncommitted change for good. ${stashFirst} \`git reset --soft\` or \`--mixed\` move the branch and keep the files.`
      : undefined,
  ),
  gitRule("git-checkout-discard", "`git checkout -- <paths>`, `git checkout .`, `git checkout <ref> <paths>`, `git checkout -f`", ({ subcommand, args, invocation }) => {
    if (subcommand !== "checkout") return undefined;
    const force = hasFlag(args, "f", "--force");
    const creates = hasFlag(args, undefined, "--orphan") || args.some((arg) => /^-[bB]$/.test(arg));
    if (creates && !force) return undefined;
    const dashDash = args.indexOf("--");
    const paths = dashDash !== -1 && dashDash < args.length - 1;
    const words = positionals(args);
    const discards = force || paths || words.includes(".") || hasFlag(args, undefined, "--pathspec-from-file") || (dashDash === -1 && words.length >= 2);
    return discards
      ? `refusing ${show(invocation)}: it overwrites uncommitted changes in the work tree, and they cannot be recovered. ${stashFirst} To switch branches, use \`git switch <branch>\`.`
      : undefined;
  }),
  gitRule("git-restore-worktree", "`git restore <paths>` without `--staged` (discards changes)", ({ subcommand, args, invocation }) => {
    if (subcommand !== "restore") return undefined;
    const staged = hasFlag(args, "S", "--staged");
    const worktree = hasFlag(args, "W", "--worktree");
    return staged && !worktree
      ? undefined
      : `refusing ${show(invocation)}: it discards uncommitted changes to those files for good. Use \`git restore --staged <paths>\` to only unstage them. ${stashFirst}`;
  }),
  gitRule("git-switch-discard", "`git switch --discard-changes` / `-f`", ({ subcommand, args, invocation }) =>
    subcommand === "switch" && hasFlag(args, "f", "--discard-changes", "--force")
      ? `refusing ${show(invocation)}: it throws away uncommitted changes. ${stashFirst} Then switch without --discard-changes.`
      : undefined,
  ),
  gitRule("git-clean-force", "`git clean -f` (without `-n`/`--dry-run`)", ({ subcommand, args, invocation }) =>
    subcommand === "clean" && hasFlag(args, "f", "--force") && !hasFlag(args, "n", "--dry-run")
      ? `refusing ${show(invocation)}: it deletes untracked files, which no commit holds, so they are gone for good. Run \`git clean -n\` to list them, then delete specific files inside the project with rm.`
      : undefined,
  ),
  gitRule("git-push-force", "`git push --force` / `-f` / `+refspec` / `--mirror` without `--force-with-lease`", ({ subcommand, args, invocation }) => {
    if (subcommand !== "push") return undefined;
    const force = hasFlag(args, "f", "--force");
    const plusRefspec = positionals(args).some((arg) => arg.startsWith("+") && arg.length > 1);
    const lease = hasFlag(args, undefined, "--force-with-lease");
    const mirror = hasFlag(args, undefined, "--mirror");
    return force || mirror || (plusRefspec && !lease)
      ? `refusing ${show(invocation)}: a force push overwrites the remote branch and can destroy other people's commits. Use \`git push --force-with-lease\`, which refuses when the remote has commits you have not seen, or ask the user.`
      : undefined;
  }),
  gitRule("git-branch-force-delete", "`git branch -D` / `--delete --force`, `-M`/`-C` over an existing branch", ({ subcommand, args, invocation }) => {
    if (subcommand !== "branch") return undefined;
    const forceDelete =
      args.some((arg) => /^-[A-Za-z]*[DMC]/.test(arg) && !arg.startsWith("--")) || (hasFlag(args, "d", "--delete") && hasFlag(args, "f", "--force")) || (hasFlag(args, "m", "--move", "--copy") && hasFlag(args, "f", "--force"));
    return forceDelete
      ? `refusing ${show(invocation)}: it deletes or overwrites a branch even when its commits are merged nowhere else. Use \`git branch -d <branch>\` (refuses to delete unmerged work) or \`git branch -m\` (refuses to overwrite a branch).`
      : undefined;
  }),
  gitRule("git-rm-force", "`git rm -f` (without `--cached`)", ({ subcommand, args, invocation }) =>
    subcommand === "rm" && hasFlag(args, "f", "--force") && !hasFlag(args, undefined, "--cached")
      ? `refusing ${show(invocation)}: --force deletes files even with uncommitted changes, which are then lost. Use \`git rm --cached <paths>\` to stop tracking them, or commit or stash the changes first.`
      : undefined,
  ),
  gitRule("git-stash-destroy", "`git stash drop` / `git stash clear`", ({ subcommand, args, invocation }) =>
    subcommand === "stash" && (args[0] === "drop" || args[0] === "clear")
      ? `refusing ${show(invocation)}: stashed work is deleted and hard to recover. Leave the stash in place (\`git stash list\` shows it), or apply it with \`git stash pop\`.`
      : undefined,
  ),
  gitRule("git-history-destroy", "`git reflog expire/delete`, `git gc --prune=now`, `git filter-branch`/`filter-repo`, `git update-ref -d`, `git read-tree --reset -u`, `git worktree remove --force`", ({ subcommand, args, invocation }) => {
    const destroys =
      (subcommand === "reflog" && (args[0] === "expire" || args[0] === "delete")) ||
      (subcommand === "gc" && args.some((arg) => /^--prune=(now|all)$/.test(arg))) ||
      (subcommand === "prune" && args.some((arg) => /^--expire(=now)?$/.test(arg))) ||
      subcommand === "filter-branch" ||
      subcommand === "filter-repo" ||
      (subcommand === "update-ref" && hasFlag(args, "d", "--delete")) ||
      (subcommand === "read-tree" && hasFlag(args, undefined, "--reset") && hasFlag(args, "u")) ||
      (subcommand === "worktree" && args[0] === "remove" && hasFlag(args.slice(1), "f", "--force"));
    return destroys
      ? `refusing ${show(invocation)}: it rewrites or deletes git history and the safety nets that recover it (reflog, unreachable commits, worktrees). Ask the user to run it if it is really needed.`
      : undefined;
  }),
];
