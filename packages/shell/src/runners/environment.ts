import type { Invocation } from "../invocations.js";
import { addCode, addUnread, type RunnerReading } from "./reading.js";

/**
 * Variables through which a program runs a command of the caller's choosing: the pager and editor every
 * tool honours, less's input filters, askpass helpers, rsync's remote shell. A literal value is read as
 * the command it is; variables that load code this reader cannot see (`LD_PRELOAD`, `NODE_OPTIONS=--require`)
 * are unknown. git's own variables are read with git; `GIT_SSH_COMMAND` by the reader itself.
 */
const commandVariables = new Set([
  "PAGER",
  "MANPAGER",
  "SYSTEMD_PAGER",
  "EDITOR",
  "VISUAL",
  "SUDO_EDITOR",
  "SSH_ASKPASS",
  "SUDO_ASKPASS",
  "RSYNC_RSH",
  "RSYNC_CONNECT_PROG",
  "BROWSER",
  "CVS_RSH",
]);
const loadsCode = new Set([
  "LD_PRELOAD",
  "LD_AUDIT",
  "DYLD_INSERT_LIBRARIES",
  "PERL5DB",
  "PYTHONSTARTUP",
  "PYTHONINSPECT",
  "LESSKEYIN",
  "LESSKEY",
  "VIMINIT",
  "EXINIT",
  "MYVIMRC",
  "PSQLRC",
  "SQLITE_INIT",
  "GDBHISTFILE",
]);
// Options of these variables that load code before the program runs.
const loadingOptions: Record<string, RegExp> = {
  NODE_OPTIONS: /(^|\s)(-r|--require|--import|--loader|--experimental-loader)(\s|=|$)/,
  PERL5OPT: /(^|\s)-[A-Za-z]*[Mmd]/,
  RUBYOPT: /(^|\s)-[A-Za-z]*r/,
};

export function readEnvironmentCode(invocation: Invocation, reading: RunnerReading): void {
  for (const assignment of invocation.assignments) {
    const equals = assignment.indexOf("=");
    const name = assignment.slice(0, equals).replace(/\+$/, "");
    const value = assignment.slice(equals + 1);
    if (commandVariables.has(name)) {
      if (value !== "") addCode(reading, value, name);
    } else if (name === "LESSOPEN" || name === "LESSCLOSE") {
      // `LESSOPEN='|cmd %s'`: less runs it through the shell for every file it opens.
      if (value !== "") addCode(reading, value.replace(/^\|+-?/, "").replaceAll("%s", "file"), name);
    } else if (loadsCode.has(name) && value !== "") addUnread(reading, name, `code from ${value}`);
    else if (loadingOptions[name]?.test(value)) addUnread(reading, name, `code it loads (${value})`);
  }
}
