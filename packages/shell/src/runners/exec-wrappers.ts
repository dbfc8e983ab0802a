import type { Invocation } from "../invocations.js";
import { letters, names, readArguments, type Grammar, type OptionSpec } from "./options.js";
import { addArgv, addCode, addUnread, commandLine, readOptionEffects, type RunnerReading } from "./reading.js";

/**
 * Programs that run the command after their options (`proot rm …`, `prlimit --nofile=10 rm …`,
 * `flatpak-spawn --host rm …`): each option grammar is read (an option not listed is unknown), and the
 * command found after the options (and any fixed words) is read as a nested command. Options whose value
 * is a shell command (`script -c`, `nix-shell --run`) hand that on as a script.
 */
type Reader = (invocation: Invocation, reading: RunnerReading) => void;

interface ExecWrapper {
  grammar: Omit<Grammar, "program">;
  /** Words after the options before the command (`faketime TIME`, `cgexec` none, `s6-setuidgid USER`). */
  positional?: number;
  /** A subcommand that must come first (`toolbox run`, `podman unshare`); other subcommands run nothing of the line's. */
  subcommand?: string;
  /** The words after the options are one shell script joined by spaces (`sg grp 'cmd'`, `concurrently 'a' 'b'` each). */
  operands?: "command" | "scripts";
  /** The fixed words come before the options (`setarch ARCH [options] cmd`). */
  positionalFirst?: boolean;
}

const shell: OptionSpec = { arity: "required", runs: "shell" };
const unknownValue: OptionSpec = { arity: "required", runs: "unknown" };

const table: Record<string, ExecWrapper> = {
  proot: {
    grammar: {
      abbreviate: true,
      short: { ...letters("0Vhl", "rbBmwvkiRS"), q: unknownValue },
      long: {
        ...names("root-id link2symlink verbose version about help kill-on-exit", "rootfs bind mount cwd pwd kernel-release change-id"),
        qemu: unknownValue,
      },
    },
  },
  fakeroot: { grammar: { abbreviate: true, short: letters("uhv", "lsib"), long: { ...names("unknown-is-real help version", "lib"), faked: unknownValue } } },
  prlimit: {
    grammar: {
      abbreviate: true,
      short: { ...optional("cdefilmnqrstuvxy"), ...letters("hV", "po") },
      long: names(
        "noheadings raw verbose help version",
        "pid output",
        "core data fsize sigpending locks rss nofile msgqueue rtprio rttime nice stack nproc as cpu memlock",
      ),
    },
  },
  catchsegv: { grammar: {} },
  "with-contenv": { grammar: {} },
  eatmydata: { grammar: { long: names("help version") } },
  numactl: {
    grammar: {
      abbreviate: true,
      short: letters("alsHfdDS", "imNCcpPbuoLMTw"),
      long: names(
        "all localalloc show hardware strict dump dump-nodes huge touch balancing",
        "interleave membind cpunodebind physcpubind cpubind preferred preferred-many weighted-interleave offset length shmmode shm file shmid",
      ),
    },
  },
  cgexec: { grammar: { abbreviate: true, short: letters("h", "gr"), long: names("sticky help", "") } },
  "dbus-run-session": { grammar: { long: { ...names("help version"), "config-file": unknownValue, "dbus-daemon": unknownValue } } },
  "flatpak-spawn": {
    grammar: {
      long: names(
        "host clear-env watch-bus expose-pids share-pids latest-version no-network sandbox verbose help",
        "forward-fd env unset-env sandbox-expose sandbox-expose-ro sandbox-expose-path sandbox-expose-path-ro sandbox-flag directory app-path usr-path",
      ),
    },
  },
  toolbox: {
    subcommand: "run",
    grammar: { short: letters("hvy", "cdr"), long: names("help verbose assumeyes", "container distro release preserve-fds log-level") },
  },
  schroot: {
    grammar: {
      abbreviate: true,
      short: letters("hVlipqvaf", "cudrwos"),
      long: names(
        "help version list info config location all all-chroots all-sessions preserve-environment quiet verbose force automatic-session begin-session recover-session end-session run-session",
        "chroot user directory option session-name",
      ),
    },
  },
  podman: { subcommand: "unshare", grammar: { long: names("rootless-netns rootless-cni") } },
  buildah: { subcommand: "unshare", grammar: { short: letters("", "m"), long: names("", "mount") } },
  "xvfb-run": {
    grammar: {
      abbreviate: true,
      short: letters("ahl", "nsewfp"),
      long: names("auto-servernum help listen-tcp", "server-num server-args error-file wait auth-file xauth-protocol"),
    },
  },
  "s6-setuidgid": { grammar: {}, positional: 1 },
  "s6-envuidgid": { grammar: { short: letters("nBi", "D") }, positional: 1 },
  chpst: { grammar: { short: letters("PvV012", "uUbe/nlLmdofpcrt") } },
  setuidgid: { grammar: {}, positional: 1 },
  envuidgid: { grammar: {}, positional: 1 },
  softlimit: { grammar: { short: letters("", "amdsoplfcrt") } },
  daemonize: { grammar: { short: letters("v", "acEeolpu") } },
  sshpass: { grammar: { short: { ...letters("ehVv", "fdpPa"), p: { arity: "required" } } } },
  torsocks: { grammar: { abbreviate: true, short: letters("ihqd", "uapP"), long: names("isolate help quiet debug version", "user pass address port") } },
  tsocks: { grammar: {} },
  proxychains: { grammar: { short: letters("q", "f") } },
  proxychains4: { grammar: { short: letters("q", "f") } },
  faketime: { grammar: { short: letters("mf"), long: names("exclude-monotonic help version", "date-prog") }, positional: 1 },
  setpriv: {
    grammar: {
      abbreviate: true,
      short: letters("dhV"),
      long: names(
        "dump keep-groups clear-groups init-groups reset-env no-new-privs help version",
        "groups inh-caps ambient-caps bounding-set ruid euid rgid egid reuid regid securebits pdeathsig selinux-label apparmor-profile landlock-access landlock-rule",
      ),
    },
  },
  setarch: {
    grammar: {
      abbreviate: true,
      short: letters("vRFZLXBIST3h"),
      long: names(
        "verbose addr-no-randomize fdpic-funcptrs mmap-page-zero addr-compat-layout read-implies-exec 32bit short-inode whole-seconds sticky-timeouts 3gb 4gb uname-2.6 list help version",
      ),
    },
    positional: 1,
    positionalFirst: true,
  },
  "env-cmd": {
    grammar: {
      abbreviate: false,
      short: letters("hVx", "fer"),
      long: names("fallback help version silent use-shell verbose no-override expand-envs recursive", "file environments rc-file"),
    },
  },
  "cross-env": { grammar: {} },
  // shx runs shelljs's versions of the commands it is given (`shx rm -rf dist`).
  shx: { grammar: { long: names("silent verbose noglob help version") } },
  "cross-env-shell": { grammar: {}, operands: "command" },
  "doppler run": {
    grammar: {
      abbreviate: false,
      short: letters("h", "pc"),
      long: {
        ...names("preserve-env help no-fallback forward-signals watch mount-template", "project config token fallback mount mount-format name-transformer"),
        command: shell,
      },
    },
  },
  "op run": { grammar: { long: names("no-masking help", "env-file account config") } },
  "aws-vault exec": {
    grammar: { short: letters("jn", "dt"), long: names("json no-session server ec2-server ecs-server stdout prompt", "duration mfa-token region lazy") },
    positional: 1,
  },
  "devbox run": { grammar: { short: letters("qh", "ce"), long: names("quiet help pure list omit-nix-env", "config environment env env-file") } },
  "direnv exec": { grammar: {}, positional: 1 },
  "nix develop": { grammar: { long: names("impure ignore-environment command", "keep unset profile"), short: letters("ic") } },
  "distrobox enter": {
    positional: 1,
    grammar: { short: letters("TVhe", "n"), long: names("no-tty no-workdir clean-path verbose help version", "name additional-flags") },
  },
  minijail0: {
    grammar: {
      short: letters("cCdeFGhHiIlLnNprsUvYz", "abbgkmMPSTtuwRK"),
      long: names("ambient uts logging mount-dev profile seccomp-bpf-binary", "env-add env-reset config fs-default-paths"),
    },
  },
};

function optional(letterList: string): Record<string, OptionSpec> {
  const result: Record<string, OptionSpec> = {};
  for (const letter of letterList) result[letter] = { arity: "optional" };
  return result;
}

// linux32, linux64, i386, x86_64…: setarch under the architecture's name, without its positional word.
for (const arch of ["linux32", "linux64", "i386", "i686", "x86_64", "uname26", "aarch64", "armv7l"])
  table[arch] = { ...table.setarch!, positional: 0, positionalFirst: false };

/** Reads a wrapper's options, then its command: after a fixed number of words, with an optional `--` before it. */
function readExecWrapper(invocation: Invocation, reading: RunnerReading, key: string, wrapper: ExecWrapper, all: readonly string[]): void {
  const program = key;
  if (wrapper.positionalFirst && (wrapper.positional ?? 0) > 0) {
    if (all[0]?.startsWith("-")) return void readExecWrapper(invocation, reading, key, { ...wrapper, positionalFirst: false, positional: 0 }, all);
    return void readExecWrapper(invocation, reading, key, { ...wrapper, positionalFirst: false, positional: 0 }, all.slice(wrapper.positional));
  }
  const args = all;
  const read = readArguments(args, { ...wrapper.grammar, program, stopAtOperand: true });
  const effects = readOptionEffects(read, program);
  reading.problems.push(...effects.problems);
  reading.scripts.push(...effects.scripts);
  if (read.options.some((option) => option.name === "--help" || option.name === "--version" || option.name === "-h")) return;
  for (const option of read.options) readWrapperOption(program, option.name, option.value, reading);
  let rest = args.slice(read.end);
  // Fixed words come before the command, but never past a `--` (`distrobox enter -- cmd` names no container).
  // A `--` that ended the options ends the fixed words too (`distrobox enter -n x -- cmd`).
  const endedByDashes = read.end > 0 && args[read.end - 1] === "--" && !read.options.some((option) => option.at === read.end - 1);
  for (let skip = endedByDashes ? 0 : (wrapper.positional ?? 0); skip > 0 && rest.length > 0 && rest[0] !== "--"; skip--) rest = rest.slice(1);
  if (rest[0] === "--") rest = rest.slice(1);
  if (rest.length === 0) return;
  if (wrapper.operands === "command") addCode(reading, rest.join(" "), program);
  else addArgv(reading, invocation, rest, program);
}

// Options of the table that run something the grammar's arity alone does not say.
function readWrapperOption(program: string, name: string, value: string | undefined, reading: RunnerReading): void {
  if (value === undefined) return;
  if (program === "devbox run" && (name === "-c" || name === "--config")) addUnread(reading, `${program} ${name}`, `scripts in ${value}`);
  if (program === "env-cmd" && /^-(r|-rc-file|f|-file)$/.test(name) && /\.(js|cjs|mjs)$/.test(value)) addUnread(reading, `${program} ${name}`, value);
  if (program === "s6-envuidgid" || program === "chpst") return;
}

/** `sg GROUP [-c] 'command'`: the command is a shell string (`sg` hands it to `/bin/sh -c`). */
const readSg: Reader = (invocation, reading) => {
  const [group, ...rest] = invocation.args;
  if (group === undefined || group.startsWith("-")) return;
  const words = rest[0] === "-c" ? rest.slice(1) : rest;
  if (words.length > 0) addCode(reading, words.join(" "), "sg");
};

/** `script [options] [file]`: `-c cmd` runs cmd in a shell; without it, an interactive shell (nothing of the line's). */
const readScript: Reader = (invocation, reading) => {
  const read = readArguments(invocation.args, {
    program: "script",
    abbreviate: true,
    short: { ...letters("aefqkhVEB", "ITOmo"), c: shell, t: { arity: "optional" } },
    long: {
      ...names("append echo flush force quiet return help version", "log-in log-out log-io log-timing logging-format output-limit timing"),
      command: shell,
    },
  });
  const effects = readOptionEffects(read, "script");
  reading.problems.push(...effects.problems);
  reading.scripts.push(...effects.scripts);
};

/** `capsh [options] [-- args]`: the words after `--` are given to `/bin/bash` (`capsh -- -c 'rm …'`); `==` runs capsh again. */
const readCapsh: Reader = (invocation, reading) => {
  const { args } = invocation;
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    if (arg === "--") {
      addCode(reading, commandLine(["bash", ...args.slice(index + 1)]), "capsh --");
      return;
    }
    if (arg === "==" || arg.startsWith("--shell=")) {
      reading.problems.push(`capsh ${arg} runs another program, which this reader does not follow, so what it runs is unknown`);
      return;
    }
    if (
      !/^--(caps|drop|inh|addamb|delamb|noamb|keep|uid|gid|groups|user|secbits|chroot|iab|mode|print|current|decode|supports|has-[a-z]+|is-[a-z]+|killit|forkfor|explain|license|help)(=|$)/.test(
        arg,
      )
    )
      reading.problems.push(`capsh: the option ${arg} is not one this reader has read, so what capsh does with it is unknown`);
  }
};

/** `nix-shell [options] [path]`: `--run cmd` and `--command cmd` are shell commands; `--arg name expr` takes two words. */
const readNixShell: Reader = (invocation, reading) => {
  const { args } = invocation;
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    if (arg === "--run" || arg === "--command") addCode(reading, args[++index] ?? "", `nix-shell ${arg}`);
    else if (arg === "--arg" || arg === "--argstr") index += 2;
    else if (/^(-p|--packages|--pure|--impure|-A|--attr|-I|--include|-i|--keep|-E|--expr|-v|--verbose|-Q|--no-build-output|--show-trace|--option)$/.test(arg)) {
      if (/^(-A|--attr|-I|--include|-i|--keep)$/.test(arg)) index++;
      else if (arg === "--option") index += 2;
      if (arg === "-i") reading.problems.push("nix-shell -i runs a script's interpreter, which this reader does not follow");
    } else if (arg.startsWith("-"))
      reading.problems.push(`nix-shell: the option ${arg} is not one this reader has read, so what nix-shell does with it is unknown`);
  }
};

/** `concurrently [options] 'cmd' 'cmd'…`: each operand is a shell command. */
const readConcurrently: Reader = (invocation, reading) => {
  for (const arg of invocation.args) if (!arg.startsWith("-")) addCode(reading, arg, "concurrently");
  for (const arg of invocation.args)
    if (
      arg.startsWith("-") &&
      !/^(-k|--kill-others|--kill-others-on-fail|-r|--raw|-s|--success=\w+|--names=.*|-n|-c|--prefix-colors=.*|--prefix=.*|-p|--group|-g|--hide=.*|--timings|--restart-tries=\d+|--max-processes=\d+|-m)$/.test(
        arg,
      )
    )
      reading.problems.push(`concurrently: the option ${arg} is not one this reader has read, so what concurrently runs is unknown`);
};

/** `start-stop-daemon --start --exec PATH [-- args]`: runs PATH (or `--startas`) with the words after `--`. */
const readStartStopDaemon: Reader = (invocation, reading) => {
  const { args } = invocation;
  const dash = args.indexOf("--");
  const options = dash === -1 ? args : args.slice(0, dash);
  let program: string | undefined;
  let starts = false;
  for (let index = 0; index < options.length; index++) {
    const arg = options[index]!;
    if (arg === "-S" || arg === "--start") starts = true;
    const attached = /^--(exec|startas)=(.*)$/s.exec(arg);
    if (attached) program = attached[2]!;
    else if (/^(-x|--exec|-a|--startas)$/.test(arg)) program = options[++index] ?? program;
  }
  if (!starts) return;
  if (program === undefined) return void reading.problems.push("start-stop-daemon --start without --exec: what it runs is unknown");
  addArgv(reading, invocation, [program, ...(dash === -1 ? [] : args.slice(dash + 1))], "start-stop-daemon");
};

/** `pdsh -w hosts cmd…`, `pssh`, `clush`: the command runs on other hosts, read as `ssh host cmd` is. */
const readRemoteShell: Reader = (invocation, reading) => {
  const read = readArguments(invocation.args, { program: invocation.name, stopAtOperand: true, short: letters("SbdLNhV", "wxgRlutfBFmMe") });
  reading.problems.push(...read.problems);
};

/** `toolbox run …`, `podman unshare …`: only the subcommand that runs a command is read; the others run nothing of the line's. */
function withSubcommand(key: string, wrapper: ExecWrapper): Reader {
  const [program, sub] = key.split(" ");
  return (invocation, reading) => {
    const args = invocation.args;
    const expected = sub ?? wrapper.subcommand;
    if (expected === undefined) return readExecWrapper(invocation, reading, program!, wrapper, args);
    // The subcommand may follow the program's global options (`toolbox -v run`): those are read as the wrapper's too.
    const at = args.indexOf(expected);
    if (at === -1) return;
    readExecWrapper(invocation, reading, `${program} ${expected}`, wrapper, args.slice(at + 1));
  };
}

/** The runners this module adds, by the name `unwrap` gives. */
export const execWrapperRunners: [string, Reader][] = [
  ...Object.entries(table).map(([key, wrapper]): [string, Reader] => [key.split(" ")[0]!, withSubcommand(key, wrapper)]),
  ["sg", readSg],
  ["script", readScript],
  ["capsh", readCapsh],
  ["nix-shell", readNixShell],
  ["concurrently", readConcurrently],
  ["start-stop-daemon", readStartStopDaemon],
  ["pdsh", readRemoteShell],
];
