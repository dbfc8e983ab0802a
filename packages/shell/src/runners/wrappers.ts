import type { Invocation } from "../invocations.js";
import { isAssignment } from "../unwrap.js";
import { letters, names, readArguments, type Grammar } from "./options.js";
import { addCode, addUnread, commandLine, type RunnerReading } from "./reading.js";

/**
 * Wrappers run the command after their options (`sudo -u root env A=1 timeout 10 rm …`). `unwrap` finds
 * that command from the options it knows take a value; here every option of every wrapper must be one
 * read, or the command found may not be the one that runs (`timeout --kill 5 10 rm`). Wrappers `unwrap`
 * does not follow (`nsenter`, `unshare`, `systemd-run`, `flock … -c`) hand their command on as a script.
 */
interface Wrapper {
  grammar: Grammar;
  /** Words after the options before the command (`timeout 10`, `flock file`, `chroot dir`). */
  positional?: number;
  /** The command is not followed by `unwrap`: it is read here as a script. */
  handsOn?: boolean;
}

const wrappers: Record<string, Wrapper> = {
  sudo: {
    grammar: {
      program: "sudo",
      abbreviate: true,
      short: letters("AbEeHiKklnPSsVvBN", "CDgpRrtTUuh"),
      long: names(
        "askpass background bell edit set-home help login remove-timestamp reset-timestamp non-interactive preserve-groups stdin shell version validate list",
        "close-from chdir group host prompt chroot role type command-timeout other-user user",
        "preserve-env",
      ),
    },
  },
  doas: { grammar: { program: "doas", short: letters("nsL", "uC") } },
  env: {
    grammar: {
      program: "env",
      abbreviate: true,
      short: letters("i0v", "uCS"),
      long: names("ignore-environment null list-signal-handling debug help version", "unset chdir split-string", "block-signal default-signal ignore-signal"),
    },
  },
  nice: { grammar: { program: "nice", abbreviate: true, short: letters("", "n"), long: names("help version", "adjustment") } },
  nohup: { grammar: { program: "nohup", abbreviate: true, long: names("help version") } },
  timeout: {
    grammar: {
      program: "timeout",
      abbreviate: true,
      short: letters("fpv", "sk"),
      long: names("foreground preserve-status verbose help version", "kill-after signal"),
    },
    positional: 1,
  },
  stdbuf: { grammar: { program: "stdbuf", abbreviate: true, short: letters("", "ioe"), long: names("help version", "input output error") } },
  setsid: { grammar: { program: "setsid", abbreviate: true, short: letters("cwf"), long: names("ctty wait fork help version") } },
  ionice: {
    grammar: { program: "ionice", abbreviate: true, short: letters("t", "cnpPu"), long: names("ignore help version", "class classdata pid pgid uid") },
  },
  chrt: {
    grammar: {
      program: "chrt",
      abbreviate: true,
      short: letters("abdfiormRevp", "TPD"),
      long: names("all-tasks batch deadline fifo idle other rr reset-on-fork max verbose pid help version ext", "sched-runtime sched-period sched-deadline"),
    },
    positional: 1,
  },
  taskset: { grammar: { program: "taskset", abbreviate: true, short: letters("apc"), long: names("all-tasks pid cpu-list help version") }, positional: 1 },
  time: {
    grammar: { program: "time", abbreviate: true, short: letters("pvaq", "fo"), long: names("portability verbose append quiet help version", "format output") },
  },
  xargs: {
    grammar: {
      program: "xargs",
      abbreviate: true,
      short: { ...letters("0prtxo", "adEILnPsJRS"), e: { arity: "optional" }, i: { arity: "optional" }, l: { arity: "optional" } },
      long: names(
        "null interactive verbose no-run-if-empty exit show-limits open-tty help version",
        "arg-file delimiter max-args max-procs max-chars process-slot-var",
        "eof replace max-lines",
      ),
    },
  },
  nsenter: {
    grammar: {
      program: "nsenter",
      abbreviate: true,
      short: { ...letters("aFcZ", "tSGe"), ...optionalLetters("muinpUCTrw") },
      long: names(
        "all no-fork preserve-credentials follow-context help version join-cgroup keep-caps env",
        "target setuid setgid",
        "mount uts ipc net pid user cgroup time root wd user-parent",
      ),
    },
    handsOn: true,
  },
  unshare: {
    grammar: {
      program: "unshare",
      abbreviate: true,
      short: { ...letters("frcl", "RwSG"), ...optionalLetters("muinpUCT") },
      long: names(
        "fork map-root-user map-current-user map-auto mount-proc mount-binfmt keep-caps help version",
        "root wd setuid setgid propagation setgroups map-user map-group map-users map-groups monotonic boottime load-interp",
        "mount uts ipc net pid user cgroup time kill-child",
      ),
    },
    handsOn: true,
  },
  "systemd-run": {
    grammar: {
      program: "systemd-run",
      abbreviate: false,
      short: letters("trPGdqSh", "upEH"),
      long: names(
        "user system scope pty pipe wait collect same-dir quiet remain-after-exit no-ask-password no-block shell send-sighup help version",
        "unit property description slice working-directory setenv uid gid nice service-type on-calendar on-active on-boot on-startup on-unit-active on-unit-inactive timer-property path-property socket-property machine host",
      ),
    },
    handsOn: true,
  },
  flock: {
    grammar: {
      program: "flock",
      abbreviate: true,
      short: letters("sxnuoFeVh", "wE"),
      long: names("shared exclusive nonblock nb unlock close no-fork verbose help version", "timeout wait conflict-exit-code"),
    },
    positional: 1,
  },
  chroot: { grammar: { program: "chroot", abbreviate: true, long: names("skip-chdir help version", "userspec groups") }, positional: 1 },
};

/** The wrappers read here. */
export const wrapperNames: ReadonlySet<string> = new Set(Object.keys(wrappers));

function optionalLetters(letters: string): Grammar["short"] {
  const table: Record<string, { arity: "optional" }> = {};
  for (const letter of letters) table[letter] = { arity: "optional" };
  return table;
}

// Shell keywords `unwrap` steps over before a command.
const keywords = new Set(["then", "else", "elif", "do", "if", "while", "until", "!", "{"]);

export function readWrappers(invocation: Invocation, reading: RunnerReading): void {
  const argv = (invocation as { argv?: readonly string[] }).argv;
  if (argv === undefined || invocation.wrappers.length === 0) {
    if (argv === undefined || !wrapperNames.has(invocation.name)) return;
  }
  let index = 0;
  while (index < argv.length) {
    const word = argv[index]!;
    if (isAssignment(word) || keywords.has(word)) {
      index++;
      continue;
    }
    const name = word.slice(word.lastIndexOf("/") + 1);
    const wrapper = Object.hasOwn(wrappers, name) ? wrappers[name]! : undefined;
    if (wrapper === undefined) return;
    const args = argv.slice(index + 1);
    // `env - cmd` is `env -i cmd`; `nice -10 cmd` is `nice -n 10 cmd`.
    const start = (name === "env" && args[0] === "-") || (name === "nice" && /^-\d+$/.test(args[0] ?? "")) ? 1 : 0;
    const read = readArguments(args.slice(start), { ...wrapper.grammar, stopAtOperand: true });
    reading.problems.push(...read.problems);
    if (read.options.some((option) => /^--?(h|help|V|version|l|list)$/.test(option.name) && name !== "flock" && name !== "xargs")) return;
    let next = start + read.end;
    if (name === "xargs") readXargsOptions(read.options, reading);
    if (name === "systemd-run") readSystemdProperties(read.options, reading);
    if (name === "flock") {
      const command = args[next + 1];
      if (command === "-c" || command === "--command") {
        addCode(reading, args[next + 2] ?? "", "flock -c");
        return;
      }
    }
    next += wrapper.positional ?? 0;
    if (wrapper.handsOn) {
      const command = args.slice(next);
      if (command.length > 0) addCode(reading, commandLine(command), name);
      return;
    }
    index += 1 + next;
  }
}

/** `xargs -I{} sh -c …` is read by the reader; xargs options that run more are listed. */
function readXargsOptions(options: ReturnType<typeof readArguments>["options"], reading: RunnerReading): void {
  for (const option of options)
    if (option.name === "-o" || option.name === "--open-tty") addUnread(reading, "xargs --open-tty", "commands with the terminal as input");
}

/** `systemd-run -p ExecStartPre=…`: a property that holds a command. */
function readSystemdProperties(options: ReturnType<typeof readArguments>["options"], reading: RunnerReading): void {
  for (const option of options) {
    if ((option.name === "-p" || option.name === "--property") && /^Exec/i.test(option.value ?? "")) addUnread(reading, "systemd-run -p", option.value ?? "");
  }
}
