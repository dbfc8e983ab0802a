import type { Invocation } from "../invocations.js";
import { stdinTexts } from "../static-text.js";
import { letters, names, readArguments, type Grammar, type OptionSpec, type ReadArguments } from "./options.js";
import { readRemoteCommand } from "./elsewhere.js";
import { addCode, addUnread, commandLine, isRunTime, readOptionEffects, type RunnerReading } from "./reading.js";

/**
 * The other programs that run something: editors and pagers (their command options), remote copy tools
 * (their remote shell), build tools, database shells (their shell escapes), schedulers and terminal
 * multiplexers (the commands they start), watchers and package runners. Each reads its options with one
 * grammar; an option not listed is unknown, and an option that runs code hands it on or is unknown.
 */
type Reader = (invocation: Invocation, reading: RunnerReading) => void;

const shell: OptionSpec = { arity: "required", runs: "shell" };
const unknownFile: OptionSpec = { arity: "required", runs: "unknown" };

/** Reads the options and adds what they run; returns the reading of the arguments for more checks. */
function readWith(args: readonly string[], grammar: Grammar, reading: RunnerReading): ReadArguments {
  const read = readArguments(args, grammar);
  const found = readOptionEffects(read, grammar.program);
  reading.scripts.push(...found.scripts);
  reading.problems.push(...found.problems);
  return read;
}

function valuesOf(read: ReadArguments, ...optionNames: string[]): string[] {
  return read.options.filter((option) => optionNames.includes(option.name) && option.value !== undefined).map((option) => option.value!);
}

// find: every primary, with the words it takes. `-exec`/`-ok` commands are read by the reader itself.
const findPrimaries = new Map<string, number>([
  ...words(
    "-delete -print -print0 -ls -prune -quit -true -false -empty -executable -readable -writable -nouser -nogroup -depth -mount -xdev -noleaf -follow -daystart -ignore_readdir_race -noignore_readdir_race -warn -nowarn -not -and -a -or -o -regextype -help --help -version --version -O0 -O1 -O2 -O3 -d -s -x",
    0,
  ),
  ...words(
    "-name -iname -path -ipath -wholename -iwholename -regex -iregex -lname -ilname -user -group -uid -gid -inum -samefile -newer -anewer -cnewer -perm -type -xtype -size -mtime -atime -ctime -mmin -amin -cmin -used -links -maxdepth -mindepth -fstype -printf -fprint -fprint0 -fls -context -D -newermm -newerma -newermc -newerBt -newerct -newerat -newermt -neweram -newerac -files0-from",
    1,
  ),
  ...words("-fprintf", 2),
]);

function words(list: string, count: number): [string, number][] {
  return list.split(" ").map((word) => [word, count]);
}

const readFind: Reader = (invocation, reading) => {
  const { args } = invocation;
  let index = 0;
  // Start paths and `-H`/`-L`/`-P` come before the expression.
  while (index < args.length && (/^-[HLP]+$/.test(args[index]!) || !/^[-(!)]/.test(args[index]!) || args[index] === "-")) index++;
  for (; index < args.length; index++) {
    const arg = args[index]!;
    if (/^-(exec|execdir|ok|okdir)$/.test(arg)) {
      while (index < args.length && args[index] !== ";" && args[index] !== "+") index++;
      continue;
    }
    if (arg === "(" || arg === ")" || arg === "!" || arg === ",") continue;
    // A plain word where a primary belongs: find rejects the line before it runs anything ("paths must
    // precede expression"; BSD's `-depth n` takes it as a value). Either way it runs no code; later words are still read.
    if (!arg.startsWith("-")) continue;
    const count = findPrimaries.get(arg) ?? (/^-newer[amcBt][amcBt]$/.test(arg) ? 1 : undefined);
    if (count === undefined) reading.problems.push(`find: the primary ${arg} is not one this reader has read, so what find does with it is unknown`);
    else index += count;
  }
};

// vim, vi, nvim, ex, view: `-c`, `--cmd` and `+cmd` are Ex commands; `-S`, `-s`, `-u` read scripts from files.
const vimGrammar: Grammar = {
  program: "vim",
  short: {
    ...letters("AbCdDeEfFgHlLmMnNRrvxXyZhpoOsV"),
    c: { arity: "required" },
    S: unknownFile,
    T: { arity: "required" },
    u: { arity: "required" },
    U: { arity: "required" },
    i: { arity: "required" },
    w: { arity: "required" },
    W: { arity: "required" },
    t: { arity: "required" },
    q: { arity: "optional" },
  },
  long: names(
    "clean noplugin literal nofork not-a-term ttyfail version help headless embed api-info echo-wid serverlist remote remote-silent remote-wait remote-wait-silent remote-tab",
    "cmd startuptime servername windowid log listen remote-send remote-expr",
  ),
};

const readVim: Reader = (invocation, reading) => {
  const plus = invocation.args.filter((arg) => arg.startsWith("+"));
  const read = readWith(
    invocation.args.filter((arg) => !arg.startsWith("+")),
    { ...vimGrammar, program: invocation.name },
    reading,
  );
  for (const command of [...plus.map((arg) => arg.slice(1)), ...valuesOf(read, "-c", "--cmd", "--remote-send", "--remote-expr")])
    readExCommand(command, invocation.name, reading);
  for (const vimrc of valuesOf(read, "-u", "-U")) if (!/^(NONE|NORC|DEFAULTS)$/.test(vimrc)) addUnread(reading, `${invocation.name} -u`, `the script ${vimrc}`);
  // `-s file` in Normal mode types the file's keys (`:!…` included); in Ex mode (`ex -s`, `vim -e -s`) it only means silent.
  const exMode = invocation.name === "ex" || read.options.some((option) => option.name === "-e" || option.name === "-E");
  if (!exMode && read.options.some((option) => option.name === "-s")) addUnread(reading, `${invocation.name} -s`, "the keys in a script file");
  // `ex`/`vim -e` reading commands from standard input.
  if (exMode) {
    const texts = stdinTexts(invocation);
    for (const text of texts) for (const line of text.split("\n")) readExCommand(line, invocation.name, reading);
    if (texts.length === 0 && (invocation.upstream.length > 0 || invocation.redirects.some((redirect) => redirect.operator === "<")))
      addUnread(reading, `${invocation.name} -e`, "Ex commands from its standard input");
  }
};

/** An Ex command: line numbers, searches, settings, writes and quits are read; `!cmd` runs a shell command; the rest is unknown. */
function readExCommand(command: string, program: string, reading: RunnerReading): void {
  const text = command.trim().replace(/^:+/, "");
  const bang = /^(?:[.%$]|\d+(?:,\d+)?)?\s*(?:r(?:ead)?\s*|w(?:rite)?\s*)?!(.*)$/s.exec(text);
  if (bang) return void addCode(reading, bang[1]!, `${program} :!`);
  if (
    /^(\d*|\$|\/[^/]*\/?|\?[^?]*\??|(?:w|wq|x|q|qa|wa|wqa|xa|up|update)!?|(?:set?|setl(?:ocal)?)\s+[\w+-=,.: ]*|syntax\s+\w+|noh(?:lsearch)?|%?s(.)(?:(?!\\=).)*|g?e(?:dit)?\s+[\w./-]+|norm(?:al)?!?\s+[^:!]*)$/s.test(
      text,
    )
  ) {
    if (/set?\s+(?:shell|makeprg|grepprg|keywordprg|equalprg|formatprg|diffexpr|patchexpr|exrc|secure)/.test(text))
      addUnread(reading, `${program} ${text}`, "a program through that setting");
    return;
  }
  reading.problems.push(`${program}: the command ${text} is not one this reader has read, so what it runs is unknown`);
}

const emacsGrammar: Grammar = {
  program: "emacs",
  abbreviate: true,
  singleDashLong: "only",
  short: {
    ...letters("qQD"),
    l: unknownFile,
    f: unknownFile,
    L: { arity: "required" },
    t: { arity: "required" },
    d: { arity: "required" },
    u: { arity: "required" },
  },
  long: {
    ...names(
      "nw batch no-init-file no-site-file no-site-lisp no-splash debug-init quick version help no-desktop no-x-resources no-loadup no-build-details fullscreen maximized iconic reverse-video no-blinking-cursor",
      "directory chdir terminal display init-directory user",
      "daemon bg-daemon fg-daemon",
    ),
    load: unknownFile,
    eval: unknownFile,
    execute: unknownFile,
    funcall: unknownFile,
    script: unknownFile,
    insert: unknownFile,
    x: unknownFile,
  },
};

const lessGrammar: Grammar = {
  program: "less",
  abbreviate: true,
  short: { ...letters("aABcCdeEfFgGiIJKLmMnNqQrRsSuUVwWX~-"), ...letters("", "bhjopOPtTxyz#"), k: unknownFile, D: { arity: "required" } },
  long: {
    ...names(
      "quit-at-eof QUIT-AT-EOF quit-if-one-screen RAW-CONTROL-CHARS raw-control-chars chop-long-lines no-init LINE-NUMBERS line-numbers ignore-case IGNORE-CASE squeeze-blank-lines silent quiet QUIET SILENT mouse use-color incsearch follow-name status-column HILITE-UNREAD hilite-unread tilde no-lessopen no-keypad version help wordwrap search-skip-screen exit-follow-on-close redraw-on-quit save-marks file-size no-histdups no-number-headers no-search-headers no-vbell long-prompt LONG-PROMPT dumb clear-screen CLEAR-SCREEN hilite-search HILITE-SEARCH force no-edit-warn show-preproc-errors",
      "tabs pattern prompt shift jump-target window header log-file LOG-FILE tag tag-file max-back-scroll max-forw-scroll color intr line-num-width status-col-width rscroll wheel-lines",
    ),
    "lesskey-file": unknownFile,
    "lesskey-src": unknownFile,
    "lesskey-content": unknownFile,
  },
};

const readLess: Reader = (invocation, reading) => {
  const plus = invocation.args.filter((arg) => arg.startsWith("+"));
  const read = readWith(
    invocation.args.filter((arg) => !arg.startsWith("+")),
    { ...lessGrammar, program: invocation.name },
    reading,
  );
  const initial = [...plus.map((arg) => arg.slice(1)), ...valuesOf(read, "--pattern").map(() => "/")];
  for (const command of initial) {
    // `+G`, `+F`, `+100`, `+/pattern`, `++/pattern`: moves and searches. `!`, `|`, `s` and `v` run or write.
    if (/^\+?(\d*[gGFpjk%]?|\/.*|\?.*|\d+)$/s.test(command)) continue;
    if (command.startsWith("!")) addCode(reading, command.slice(1), `${invocation.name} +!`);
    else reading.problems.push(`${invocation.name}: the initial command +${command} is not one this reader has read`);
  }
};

const manGrammar: Grammar = {
  program: "man",
  abbreviate: true,
  short: {
    ...letters("adDfkKlLuwWZ7tiIY", "MrEmSsepRLTX"),
    C: unknownFile,
    P: shell,
    H: { arity: "optional", runs: "shell" },
    T: { arity: "optional" },
    X: { arity: "optional" },
  },
  long: {
    ...names(
      "all debug default whatis apropos global-apropos local-file update where path where-cat location location-cat ditroff ascii regex wildcard names-only no-subpages no-hyphenation no-justification ignore-case match-case help usage version",
      "manpath prompt encoding systems sections section extension preprocessor recode locale",
      "warnings troff-device gxditview nh nj",
    ),
    "config-file": unknownFile,
    pager: shell,
    html: { arity: "optional", runs: "shell" },
  },
};

const makeGrammar: Grammar = {
  program: "make",
  abbreviate: true,
  short: { ...letters("bBdeiknpqrRsStvwL", "CIoWl"), j: { arity: "optional" }, O: { arity: "optional" }, f: { arity: "required" } },
  long: {
    ...names(
      "always-make environment-overrides ignore-errors keep-going just-print dry-run recon print-data-base question no-builtin-rules no-builtin-variables silent quiet no-silent stop no-keep-going touch version print-directory no-print-directory warn-undefined-variables check-symlink-times help trace",
      "directory include-dir old-file assume-old what-if new-file assume-new load-average max-load makefile file jobserver-auth jobserver-style shuffle",
      "jobs output-sync debug",
    ),
    eval: unknownFile,
  },
};

const readMake: Reader = (invocation, reading) => {
  const read = readWith(invocation.args, makeGrammar, reading);
  for (const file of valuesOf(read, "-f", "--file", "--makefile"))
    if (file === "-" || /^\/(dev|proc)\//.test(file) || isRunTime(file)) addUnread(reading, "make -f", `the makefile ${file}, text not read here`);
  for (const operand of read.operands) {
    const assignment = /^([^=:+?\s]+)\s*[:+?]*=(.*)$/s.exec(operand);
    if (assignment === null) continue;
    const [, name, value] = assignment;
    // `make SHELL=…` changes what runs every recipe; any other variable may stand in a recipe (`make CC='rm -rf ~'`).
    if (/^(SHELL|MAKESHELL|\.SHELLFLAGS|MAKEFLAGS|MAKEFILES|MFLAGS)$/.test(name!)) addUnread(reading, `make ${name}=`, "its recipes through that setting");
    else if (value !== "") addCode(reading, value!.replaceAll("$(shell ", "$("), `make ${name}=`);
  }
};

// OpenSSH keywords whose value is a command run locally (ProxyCommand, LocalCommand, KnownHostsCommand, Match exec).
const sshCommandKeys = /^(proxycommand|localcommand|knownhostscommand|remotecommand)$/i;
const sshUnknownKeys = /^(include|match|pkcs11provider|securitykeyprovider|controlpath|identityagent|sshaskpass|forwardagent|permitlocalcommand)$/i;

function readSshOption(option: string, program: string, reading: RunnerReading): void {
  const match = /^\s*([A-Za-z]+)\s*(?:=|\s)\s*(.*)$/s.exec(option);
  if (match === null) return void reading.problems.push(`${program} -o ${option} cannot be read`);
  const [, key, value] = match;
  if (sshCommandKeys.test(key!)) {
    if (!/^none$/i.test(value!)) addCode(reading, value!.replace(/%[%hnprCdiklLuT]/g, "x"), `${program} -o ${key}`);
  } else if (sshUnknownKeys.test(key!) && !/^(no|none|-)$/i.test(value!)) {
    if (!/^(permitlocalcommand|forwardagent|controlpath)$/i.test(key!)) addUnread(reading, `${program} -o ${key}`, value!);
  }
}

const sshGrammar: Grammar = {
  program: "ssh",
  stopAtOperand: true,
  short: { ...letters("46AaCfGgKkMNnqsTtVvXxYy", "BbcDEeiJLlmOopQRSWw"), F: { arity: "required" }, I: unknownFile, P: { arity: "required" } },
};

function readSshFamily(invocation: Invocation, reading: RunnerReading, grammar: Grammar, args: readonly string[] = invocation.args): ReadArguments {
  const read = readWith(args, grammar, reading);
  for (const option of valuesOf(read, "-o")) readSshOption(option, invocation.name, reading);
  for (const config of valuesOf(read, "-F"))
    if (config !== "/dev/null" && config !== "none") addUnread(reading, `${invocation.name} -F`, `the settings in ${config}`);
  return read;
}

// OpenSSH reads options after the host too (`ssh host -p 22 -o … cmd`): the command starts at the first word that is none.
const readSsh: Reader = (invocation, reading) => {
  const beforeHost = readSshFamily(invocation, reading, sshGrammar);
  const rest = invocation.args.slice(beforeHost.end + 1);
  const afterHost = readSshFamily(invocation, reading, sshGrammar, rest);
  readRemoteCommand(invocation, [...beforeHost.options, ...afterHost.options], rest.slice(afterHost.end), reading);
};

const scpGrammar: Grammar = {
  program: "scp",
  short: { ...letters("346ABCOpqRrTv", "cDJilPoX"), F: { arity: "required" }, S: shell },
};
const sftpGrammar: Grammar = {
  program: "sftp",
  stopAtOperand: true,
  short: { ...letters("46AaCfNpqrv", "BcDiJlPRsoX"), F: { arity: "required" }, S: shell, b: unknownFile },
};

const readScp: Reader = (invocation, reading) => void readSshFamily(invocation, reading, scpGrammar);
const readSftp: Reader = (invocation, reading) => {
  const read = readSshFamily(invocation, reading, sftpGrammar);
  // `-D path` runs a local sftp server program instead of connecting.
  for (const server of valuesOf(read, "-D")) addCode(reading, server, "sftp -D");
  // Commands on its input: `!cmd` runs a local shell command.
  for (const line of inputLines(invocation)) {
    const local = /^\s*!(.*)$/s.exec(line);
    if (local !== null) addCode(reading, local[1]!, "sftp !");
  }
};

/** The lines of a program's known input (heredocs, here-strings, piped text), blank ones left out. */
function inputLines(invocation: Invocation): string[] {
  return stdinTexts(invocation).flatMap((text) => text.split("\n").filter((line) => line.trim() !== ""));
}

const rsyncGrammar: Grammar = {
  program: "rsync",
  abbreviate: false,
  short: { ...letters("vqcarRbuLlkKHpEAXoDgtOJUNSnWxCyzPhi0I"), ...letters("", "BTTf"), e: shell, M: { arity: "required" } },
  long: {
    ...names(
      "verbose info debug stderr quiet no-motd checksum archive recursive relative no-implied-dirs backup update inplace append append-verify dirs old-dirs mkpath links copy-links copy-unsafe-links safe-links munge-links copy-dirlinks keep-dirlinks hard-links perms executability acls xattrs owner group devices copy-devices write-devices specials times atimes open-noatime crtimes omit-dir-times omit-link-times super fake-super sparse preallocate dry-run whole-file one-file-system existing ignore-existing remove-source-files delete delete-before delete-during delete-delay delete-after delete-excluded ignore-missing-args delete-missing-args ignore-errors force partial prune-empty-dirs numeric-ids size-only ignore-times fuzzy compress cvs-exclude blocking-io stats 8-bit human-readable progress itemize-changes list-only ipv4 ipv6 version help no-whole-file no-compress no-perms no-owner no-group no-times no-recursive no-relative no-links no-devices no-specials no-D no-o no-g no-p no-t no-r no-R no-l no-W no-inc-recursive mkpath from0 protect-args secluded-args trust-sender copy-as no-h no-v delay-updates",
      "backup-dir suffix chmod chown usermap groupmap chown timeout contimeout modify-window temp-dir compare-dest copy-dest link-dest compress-level compress-choice skip-compress filter exclude exclude-from include include-from files-from address port sockopts out-format log-file log-file-format password-file bwlimit stop-after stop-at write-batch only-write-batch read-batch protocol iconv checksum-seed checksum-choice max-delete max-size min-size max-alloc block-size partial-dir outbuf early-input remote-option copy-as",
    ),
    rsh: shell,
    "rsync-path": shell,
    "connect-prog": shell,
    config: unknownFile,
  },
};

const zipGrammar: Grammar = {
  program: "zip",
  short: { ...letters("0123456789AcdDeFfgjJklLmoqrSTuvwXyz$@^", "bnPstx"), i: { arity: "required" } },
  long: {
    ...names(
      "recurse-paths junk-paths quiet verbose test update freshen delete move grow fix fixfix encrypt symlinks no-dir-entries latest-time adjust-sfx help version display-bytes display-counts display-dots display-globaldots display-usize no-wild wild-stop-dirs ascii to-crlf from-crlf",
      "temp-path suffixes password split-size display-dots-size out compression-method filesync",
    ),
    "unzip-command": shell,
  },
};

const readZip: Reader = (invocation, reading) => {
  // `-TT cmd` is zip's own two-letter option: the command tests the archive (`{}` is its name).
  const args = [...invocation.args];
  for (let index = 0; index < args.length; index++) {
    if (args[index] === "-TT") {
      addCode(reading, (args[index + 1] ?? "").replaceAll("{}", "archive.zip"), "zip -TT");
      args.splice(index, 2);
      index--;
    }
  }
  const read = readArguments(args, zipGrammar);
  const found = readOptionEffects(read, "zip");
  reading.scripts.push(...found.scripts.map(([script, how]): [string, string] => [script.replaceAll("{}", "archive.zip"), how]));
  reading.problems.push(...found.problems);
};

const gdbGrammar: Grammar = {
  program: "gdb",
  abbreviate: true,
  singleDashLong: "only",
  short: { ...letters("qnw", "pcsedb"), x: unknownFile },
  long: {
    ...names(
      "batch batch-silent quiet silent nx nh nw nowindows readnow readnever write version help configuration return-child-result tui dbx statistics",
      "pid core exec symbols directory cd tty baud interpreter data-directory se l",
    ),
    ex: { arity: "required" },
    "eval-command": { arity: "required" },
    iex: { arity: "required" },
    "init-eval-command": { arity: "required" },
    ix: unknownFile,
    "init-command": unknownFile,
    command: unknownFile,
    x: unknownFile,
    args: { arity: "none" },
  },
};

const readGdb: Reader = (invocation, reading) => {
  const args = invocation.args;
  const argsAt = args.findIndex((arg) => arg === "--args" || arg === "-args");
  const read = readWith(argsAt === -1 ? args : args.slice(0, argsAt), gdbGrammar, reading);
  for (const command of [...valuesOf(read, "--ex", "--eval-command", "--iex", "--init-eval-command", "-e"), ...inputLines(invocation)])
    readGdbCommand(command, reading);
  if (argsAt !== -1 && args.length > argsAt + 1) addCode(reading, commandLine(args.slice(argsAt + 1)), "gdb --args");
};

/** gdb commands: inspection is read; `shell`/`!` run a shell command; `python`, `source`, `pipe` and the rest are unknown. */
function readGdbCommand(command: string, reading: RunnerReading): void {
  const text = command.trim();
  const shellCommand = /^(?:shell\s+|!)(.*)$/s.exec(text);
  if (shellCommand) return void addCode(reading, shellCommand[1]!, "gdb shell");
  if (
    /^(bt|backtrace|where|run|r|start|continue|c|next|n|step|s|quit|q|kill|info\s+[\w\s-]*|thread\s+apply\s+all\s+(bt|backtrace)(\s+full)?|set\s+(pagination|confirm|print|logging|width|height)\b[\w\s-]*|break\s+[\w:.]+|b\s+[\w:.]+|list\s*[\w:.]*|disassemble\s*[\w:.]*|frame\s*\d*|up|down|finish|p\s+[\w.>-]+|print\s+[\w.>-]+|x\/\w+\s+[\w$&*]+|detach)$/.test(
      text,
    )
  )
    return;
  reading.problems.push(`gdb: the command ${text} is not one this reader has read, so what it runs is unknown`);
}

const sqliteGrammar: Grammar = {
  program: "sqlite3",
  singleDashLong: "also",
  long: {
    ...names(
      "append ascii bail batch box column csv deserialize echo header help html interactive json line list lookaside markdown memtrace nofollow noheader nonce pcachetrace quote readonly safe stats table tabs version zip unsafe-testing no-rowid-in-view memtrace",
      "cmd init maxsize mmap newline nullvalue separator vfs pagecache heap escape A",
    ),
    init: unknownFile,
  },
};

const readSqlite: Reader = (invocation, reading) => {
  const read = readWith(invocation.args, sqliteGrammar, reading);
  if (read.options.some((option) => option.name === "--safe")) return;
  const texts = [...valuesOf(read, "--cmd"), ...read.operands.slice(1), ...stdinTexts(invocation)];
  for (const text of texts) readSqliteText(text, reading);
};

/** sqlite3's dot commands that run (`.shell`, `.system`, `.once |cmd`, `.output |cmd`, `.import '|cmd'`) or load code (`.load`, `load_extension`). */
function readSqliteText(text: string, reading: RunnerReading): void {
  for (const line of text.split("\n")) {
    const trimmed = line.trim();
    const run = /^\.(?:sh|shell|system)\s+(.*)$/s.exec(trimmed);
    if (run) addCode(reading, unquoteSql(run[1]!), "sqlite3 .shell");
    const pipe = /^\.(?:once|output|import|read|excel)\b.*?['"]?\|(.*?)['"]?$/s.exec(trimmed);
    if (pipe) addCode(reading, pipe[1]!, "sqlite3 pipe");
    if (/^\.(load|open\s+.*--?(deserialize|hexdb))/.test(trimmed) || /load_extension\s*\(|\bedit\s*\(/i.test(trimmed))
      addUnread(reading, "sqlite3", `code through ${trimmed}`);
  }
}

function unquoteSql(text: string): string {
  const quoted = /^(['"])(.*)\1$/s.exec(text.trim());
  return quoted ? quoted[2]! : text;
}

const psqlGrammar: Grammar = {
  program: "psql",
  abbreviate: true,
  short: { ...letters("aAbeEhHlnqsStxXwWz0V1?", "cdFLoPRTUvp"), f: unknownFile },
  long: names(
    "echo-all no-align echo-errors echo-queries echo-hidden list no-readline quiet single-step single-line tuples-only expanded no-psqlrc no-password password field-separator-zero record-separator-zero version single-transaction help csv html",
    "command dbname field-separator log-file output pset record-separator table-attr host port username variable set file",
  ),
};

const readPsql: Reader = (invocation, reading) => {
  const read = readWith(invocation.args, psqlGrammar, reading);
  for (const file of valuesOf(read, "--file")) addUnread(reading, "psql --file", file);
  for (const output of valuesOf(read, "-o", "--output")) if (output.startsWith("|")) addCode(reading, output.slice(1), "psql -o |");
  for (const text of [...valuesOf(read, "-c", "--command"), ...stdinTexts(invocation)]) readBackslashCommands(text, "psql", reading);
};

/** psql and mysql: `\! cmd` runs a shell command; `\o |cmd`, `\g |cmd`, `\copy … program`, `COPY … PROGRAM` run one too. */
function readBackslashCommands(text: string, program: string, reading: RunnerReading): void {
  for (const match of text.matchAll(/\\!\s*([^\n]*)/g)) addCode(reading, match[1]!, `${program} \\!`);
  for (const match of text.matchAll(/\\(?:o|out|g|gx|w|write)\s*\|\s*([^\n]*)/g)) addCode(reading, match[1]!, `${program} |`);
  if (/\bprogram\s+'/i.test(text)) addUnread(reading, `${program} COPY … PROGRAM`, "a command on the database server");
  if (program === "mysql") {
    for (const match of text.matchAll(/(?:^|;|\n)\s*(?:system|\\!)\s+([^\n;]*)/gi)) addCode(reading, match[1]!, "mysql system");
    for (const match of text.matchAll(/(?:^|;|\n)\s*(?:pager|\\P)\s+([^\n;]*)/gi)) addCode(reading, match[1]!, "mysql pager");
  }
}

const mysqlGrammar: Grammar = {
  program: "mysql",
  abbreviate: true,
  short: { ...letters("BsNrtvVXHEfnqwiC#", "uhPDSeOo"), p: { arity: "optional" } },
  long: {
    ...names(
      "batch silent skip-column-names raw table verbose version xml html vertical force unbuffered quick wait ignore-spaces compress help skip-pager no-pager auto-rehash no-auto-rehash one-database safe-updates i-am-a-dummy secure-auth show-warnings skip-ssl ssl binary-mode column-names line-numbers skip-line-numbers no-beep tee skip-reconnect reconnect",
      "user host port database socket execute protocol default-character-set connect-timeout max-allowed-packet net-buffer-length select-limit max-join-size ssl-mode ssl-ca ssl-cert ssl-key tls-version delimiter prompt tee login-path comments",
      "password",
    ),
    pager: { arity: "optional", runs: "shell" },
    "init-command": { arity: "required" },
    "plugin-dir": unknownFile,
    "default-auth": unknownFile,
    "defaults-file": unknownFile,
    "defaults-extra-file": unknownFile,
  },
};

const readMysql: Reader = (invocation, reading) => {
  const read = readWith(invocation.args, mysqlGrammar, reading);
  for (const text of [...valuesOf(read, "-e", "--execute", "--init-command"), ...stdinTexts(invocation)]) readBackslashCommands(text, "mysql", reading);
};

/** `crontab file`, `crontab -`: installs commands that run later; listing and removing is fine. */
const readCrontab: Reader = (invocation, reading) => {
  const read = readArguments(invocation.args, { program: "crontab", short: letters("lrieT", "uc") });
  reading.problems.push(...read.problems);
  const lists = read.options.some((option) => /^-(l|r|T)$/.test(option.name));
  if (!lists) addUnread(reading, "crontab", "commands it installs to run later (a file, standard input or an editor)");
};

/** `at`, `batch`: the commands come from standard input or `-f file`, and run later. */
const readAt: Reader = (invocation, reading) => {
  const read = readArguments(invocation.args, { program: invocation.name, short: letters("lrdcmMvVqbK", "fqtu") });
  reading.problems.push(...read.problems);
  if (read.options.some((option) => /^-(l|r|d|c|V)$/.test(option.name))) return;
  const file = read.options.find((option) => option.name === "-f");
  if (file !== undefined) return void addUnread(reading, `${invocation.name} -f`, `the commands in ${file.value}`);
  const texts = stdinTexts(invocation);
  if (texts.length === 0) addUnread(reading, invocation.name, "commands from its standard input");
  for (const text of texts) addCode(reading, text, invocation.name);
};

// tmux commands that run a shell command (their last words), and those that type keys into a pane.
const tmuxShellCommands = new Map<string, string>([
  ["new-session", "s n c t x y e F f"],
  ["new", "s n c t x y e F f"],
  ["new-window", "n c t e F"],
  ["neww", "n c t e F"],
  ["split-window", "c e l p t F"],
  ["splitw", "c e l p t F"],
  ["respawn-pane", "c e t"],
  ["respawnp", "c e t"],
  ["respawn-window", "c e t"],
  ["respawnw", "c e t"],
  ["run-shell", "c d t"],
  ["run", "c d t"],
  ["display-popup", "b c d e h s S t T w x y"],
  ["popup", "b c d e h s S t T w x y"],
  ["pipe-pane", "t"],
  ["pipep", "t"],
]);
const tmuxKeys = new Set(["send-keys", "send"]);
const tmuxReads = new Set(
  "ls list-sessions list-windows lsw list-panes lsp has-session has kill-session kill-server kill-window killw kill-pane killp attach attach-session a detach detach-client capture-pane capturep display-message display select-window selectw select-pane selectp rename-session rename-window resize-pane resizep wait-for list-clients lsc list-buffers show-buffer showb save-buffer saveb set-option set set-window-option setw show-options show start-server start info switch-client switchc".split(
    " ",
  ),
);

const readTmux: Reader = (invocation, reading) => {
  const read = readArguments(invocation.args, { program: "tmux", stopAtOperand: true, short: letters("2CDhluNvV", "cfLST") });
  reading.problems.push(...read.problems);
  for (const option of read.options) {
    if (option.name === "-c" && option.value !== undefined) addCode(reading, option.value, "tmux -c");
    if (option.name === "-f" && option.value !== "/dev/null") addUnread(reading, "tmux -f", `the configuration in ${option.value}`);
  }
  // Commands are separated by a `;` word.
  let command: string[] = [];
  for (const word of [...invocation.args.slice(read.end), ";"]) {
    if (word !== ";" && word !== "\\;") command.push(word);
    else if (command.length > 0) {
      readTmuxCommand(command, reading);
      command = [];
    }
  }
};

function readTmuxCommand(words: readonly string[], reading: RunnerReading): void {
  const [name, ...args] = words as [string, ...string[]];
  const valued = tmuxShellCommands.get(name);
  if (valued !== undefined) {
    const operands = tmuxOperands(args, valued);
    if (operands.length > 0) addCode(reading, operands.join(" "), `tmux ${name}`);
    return;
  }
  if (tmuxKeys.has(name)) {
    const keys = tmuxOperands(args, "t N c").map((key) => (/^(Enter|C-m|C-j|KPEnter)$/.test(key) ? "\n" : key));
    if (keys.length > 0) addCode(reading, keys.join(" ").replaceAll(" \n ", "\n").replaceAll(" \n", "\n"), "tmux send-keys");
    return;
  }
  if (!tmuxReads.has(name)) reading.problems.push(`tmux: the command ${name} is not one this reader has read, so what it runs is unknown`);
}

/** A tmux command's words after its flags (letters) and the values of its `valued` letters. */
function tmuxOperands(args: readonly string[], valued: string): string[] {
  const valuedLetters = valued.replaceAll(" ", "");
  let index = 0;
  while (index < args.length && args[index]!.startsWith("-") && args[index]!.length > 1) {
    const arg = args[index]!;
    index++;
    if (arg === "--") break;
    const last = arg[arg.length - 1]!;
    if (valuedLetters.includes(last)) index++;
  }
  return args.slice(index);
}

/** `screen -dmS name cmd …` runs cmd; `screen -X stuff 'text'` types text into a window; `-c file` reads a config. */
const readScreen: Reader = (invocation, reading) => {
  const args = invocation.args;
  let index = 0;
  for (; index < args.length && args[index]!.startsWith("-"); index++) {
    const arg = args[index]!;
    if (/^-(S|p|t|T|e|h|s|c|L?ogfile)$/.test(arg)) {
      if (arg === "-c" && args[index + 1] !== "/dev/null") addUnread(reading, "screen -c", `the configuration in ${args[index + 1]}`);
      index++;
    } else if (arg === "-X" || arg === "-Q") {
      const command = args.slice(index + 1);
      if (command[0] === "stuff") addCode(reading, (command[1] ?? "").replaceAll("^M", "\n").replaceAll("\\n", "\n").replaceAll("\\r", "\n"), "screen stuff");
      else if (command[0] === "exec" || command[0] === "screen") addCode(reading, commandLine(command.slice(1)), `screen ${command[0]}`);
      else if (command.length > 0 && !/^(quit|kill|detach|hardcopy|select|windows|info|title|sessionname)$/.test(command[0]!))
        reading.problems.push(`screen: the command ${command[0]} is not one this reader has read`);
      return;
    } else if (/^-[dmDRrxUaAqlifLO]+S$/.test(arg)) {
      // `-dmS name`: the session name follows the cluster.
      index++;
    } else if (!/^-(ln|ls|list|wipe|v|version|-help|fn|fa|Logfile)$/.test(arg) && !/^-[dmDRrxUaAqlifLO]+$/.test(arg)) {
      reading.problems.push(`screen: the option ${arg} is not one this reader has read`);
    }
  }
  if (index < args.length) addCode(reading, commandLine(args.slice(index)), "screen");
};

/** `expect -c 'spawn …'`, `expect -` and `expect -f -` run Tcl with `exec`/`system`/`spawn`: not read here. */
const readExpect: Reader = (invocation, reading) => {
  if (invocation.args.some((arg) => arg === "-c" || arg === "-" || arg === "-i" || /^-[A-Za-z]*c$/.test(arg)))
    addUnread(reading, "expect", "Tcl commands given on its command line or standard input");
};

/** `entr [-acdnprsz] utility args`: with `-s` the utility is a shell command. */
const readEntr: Reader = (invocation, reading) => {
  const read = readArguments(invocation.args, { program: "entr", stopAtOperand: true, short: letters("acdnprszx") });
  reading.problems.push(...read.problems);
  const command = invocation.args.slice(read.end);
  if (command.length === 0) return;
  const viaShell = read.options.some((option) => option.name === "-s");
  addCode(reading, viaShell ? command.join(" ") : commandLine(command), "entr");
};

const watchexecGrammar: Grammar = {
  program: "watchexec",
  abbreviate: false,
  stopAtOperand: true,
  short: letters("cnNopqrvWh1", "ewfiEsd"),
  long: names(
    "clear restart postpone no-vcs-ignore no-project-ignore no-global-ignore no-default-ignore no-discover-ignore no-meta notify only-emit-events quiet verbose help version watch-when-idle no-process-group stop-on-exit bell timings print-events",
    "exts watch watch-non-recursive filter ignore ignore-file env signal stop-signal stop-timeout debounce delay-run poll shell workdir on-busy-update project-origin emit-events-to fs-events filter-file filter-prog wrap-process log-file socket",
  ),
};

const readWatchexec: Reader = (invocation, reading) => {
  const read = readArguments(invocation.args, watchexecGrammar);
  reading.problems.push(...read.problems);
  const shellName = read.options.find((option) => option.name === "--shell")?.value;
  if (read.options.some((option) => option.name === "--filter-prog")) addUnread(reading, "watchexec --filter-prog", "a filter program");
  const command = invocation.args.slice(read.end);
  if (command.length === 0) return;
  // watchexec hands one word to the shell as a script, several words to the program directly (or to `--shell none`).
  addCode(reading, command.length === 1 && shellName !== "none" ? command[0]! : commandLine(command), "watchexec");
};

const nodemonGrammar: Grammar = {
  program: "nodemon",
  short: { ...letters("CIqvLh", "wedVs"), x: shell },
  long: {
    ...names(
      "legacy-watch no-colors quiet verbose version help dump on-change-only spawn no-update-notifier no-stdin",
      "watch ext ignore delay config signal polling-interval cwd",
    ),
    exec: shell,
  },
};

const readNodemon: Reader = (invocation, reading) => {
  const read = readWith(invocation.args, nodemonGrammar, reading);
  if (valuesOf(read, "--config").length > 0) addUnread(reading, "nodemon --config", "commands named in that file");
};

// apt and apt-get: `-o Key=Value` settings that run commands (`APT::Update::Pre-Invoke`, `DPkg::Post-Invoke`, `Dir::Bin::dpkg`).
const aptCommandKeys = /(pre|post)-invoke|pre-install-pkgs|post-invoke-success/i;
const aptUnknownKeys =
  /^(dir::bin|dpkg::tools|apt::key::gpgvcommand|acquire::.*(proxy-auto-detect|proxyautodetect)|dir::etc|dir::state|dpkg::options|apt::config::|rpm::)/i;

const aptGrammar: Grammar = {
  program: "apt-get",
  abbreviate: false,
  short: { ...letters("ydfmqsbuVhv", "tao"), c: unknownFile },
  long: names(
    "yes assume-yes assume-no no-install-recommends install-recommends install-suggests no-install-suggests download-only fix-broken fix-missing ignore-missing no-download quiet simulate just-print dry-run recon no-act show-upgraded verbose-versions build host-architecture only-upgrade no-upgrade reinstall purge list-cleanup no-list-cleanup allow-downgrades allow-remove-essential allow-change-held-packages allow-unauthenticated auto-remove autoremove force-yes print-uris compile trivial-only no-remove only-source diff-only dsc-only tar-only arch-only indep-only help version with-new-pkgs mark-auto update full-upgrade installed upgradable all-versions",
    "target-release default-release option host-architecture build-profiles solver planner config-file",
  ),
};

const readApt: Reader = (invocation, reading) => {
  const read = readWith(invocation.args, { ...aptGrammar, program: invocation.name }, reading);
  for (const setting of valuesOf(read, "-o", "--option")) {
    const equals = setting.indexOf("=");
    const key = equals === -1 ? setting : setting.slice(0, equals);
    const value = equals === -1 ? "" : setting.slice(equals + 1);
    if (aptCommandKeys.test(key)) addCode(reading, value, `${invocation.name} -o ${key}`);
    else if (aptUnknownKeys.test(key)) addUnread(reading, `${invocation.name} -o ${key}`, value);
  }
  for (const config of valuesOf(read, "--config-file")) addUnread(reading, `${invocation.name} --config-file`, config);
};

/** dpkg's hooks: `--pre-invoke=cmd`, `--post-invoke=cmd`, `--status-logger=cmd` run through the shell. */
const readDpkg: Reader = (invocation, reading) => {
  for (const arg of invocation.args) {
    const hook = /^--(pre-invoke|post-invoke|status-logger)=(.*)$/s.exec(arg);
    if (hook) addCode(reading, hook[2]!, `dpkg --${hook[1]}`);
    else if (/^--(pre-invoke|post-invoke|status-logger)$/.test(arg)) reading.problems.push(`dpkg ${arg} takes its command attached (--${arg}=…)`);
    else if (/^--(admindir|instdir|root)(=|$)/.test(arg)) addUnread(reading, `dpkg ${arg}`, "maintainer scripts from another database");
  }
};

/** `uvx [options] tool args`, `pipx run [options] app args`: a package's program, with its words. */
const uvxGrammar: Grammar = {
  program: "uvx",
  stopAtOperand: true,
  abbreviate: false,
  short: letters("qvnh", "pw"),
  long: names(
    "isolated offline refresh no-cache quiet verbose help version no-config native-tls no-progress prerelease",
    "from with with-editable with-requirements python index index-url extra-index-url default-index find-links python-preference cache-dir directory project config-file reinstall-package refresh-package env-file color",
  ),
};

const readUvx: Reader = (invocation, reading) => {
  let args: readonly string[] = invocation.args;
  if (invocation.name === "pipx") {
    if (args[0] !== "run") return;
    args = args.slice(1);
  }
  const read = readArguments(args, {
    ...uvxGrammar,
    program: invocation.name,
    long: { ...uvxGrammar.long, spec: { arity: "required" }, "pip-args": { arity: "required" } },
  });
  reading.problems.push(...read.problems);
  const command = args.slice(read.end);
  if (command.length > 0) addCode(reading, commandLine(command), invocation.name);
};

/** m4: `syscmd(…)` and `esyscmd(…)` in literal input run shell commands; other input (files) is the project's. */
const readM4: Reader = (invocation, reading) => {
  const defines = invocation.args.filter((arg) => /^(-D|--define=)/.test(arg));
  for (const text of [...stdinTexts(invocation), ...defines]) {
    for (const match of text.matchAll(/\b(?:e?syscmd)\s*\(\s*`?([^')]*)'?\s*\)/g)) addCode(reading, match[1]!, "m4 syscmd");
    if (/\b(e?syscmd|include|sinclude)\b/.test(text) && !/\b(e?syscmd)\s*\(\s*`?[^')]*'?\s*\)/.test(text))
      addUnread(reading, "m4", "a command or file it builds from its input");
  }
};

/** fc: bash's history editor re-runs earlier commands (`history -s 'rm -rf ~'; fc -s`); only its listing, `fc -l`, is read. */
const readFc: Reader = (invocation, reading) => {
  if (!/^-[nr]*l[nr]*$/.test(invocation.args[0] ?? "")) addUnread(reading, "fc", "commands from the shell's history");
};

export const otherRunners: [string, Reader][] = [
  ["find", readFind],
  ["fc", readFc],
  ...["vim", "vi", "nvim", "ex", "view", "vimdiff", "rvim", "gvim"].map((name): [string, Reader] => [name, readVim]),
  ...["emacs", "emacsclient"].map((name): [string, Reader] => [name, (invocation, reading) => void readWith(invocation.args, emacsGrammar, reading)]),
  ["less", readLess],
  ["man", (invocation, reading) => void readWith(invocation.args, manGrammar, reading)],
  ["make", readMake],
  ["gmake", readMake],
  ["ssh", readSsh],
  ["scp", readScp],
  ["sftp", readSftp],
  ["rsync", (invocation, reading) => void readWith(invocation.args, rsyncGrammar, reading)],
  ["zip", readZip],
  ["gdb", readGdb],
  ["sqlite3", readSqlite],
  ["psql", readPsql],
  ["mysql", readMysql],
  ["mariadb", readMysql],
  ["crontab", readCrontab],
  ["at", readAt],
  ["batch", readAt],
  ["tmux", readTmux],
  ["screen", readScreen],
  ["expect", readExpect],
  ["entr", readEntr],
  ["watchexec", readWatchexec],
  ["nodemon", readNodemon],
  ["apt", readApt],
  ["apt-get", readApt],
  ["dpkg", readDpkg],
  ["uvx", readUvx],
  ["pipx", readUvx],
  ["m4", readM4],
];
