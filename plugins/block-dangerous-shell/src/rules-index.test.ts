import { describe, expect, it } from "vitest";
import { checkCommand } from "./check.js";
import { corpusLines } from "./corpus/corpus.js";
import { resolveOptions } from "./options.js";
import { deviceWriters } from "./rules/devices.js";
import { indexByName, type Facts } from "./rules/rule.js";

// The rules that look at every command meet only the commands their name test lets through (`Facts.where`), and
// the named rules only their names (`Facts.named`). These tests try to slip a command past that index: through
// wrappers, full paths, multi-call programs, `command`/`builtin`/`exec`, aliases, nested shells, names known
// only at run time, a command with no name and only a redirect. Each line is decided twice: by the guard, and
// by the same rules handed every command of the line (no index); the two must agree.

const environment = { projectRoot: "/home/dev/project", home: "/home/dev" };
const guard = resolveOptions({ packs: ["databases", "containers", "kubernetes", "cloud", "terraform"] }, environment).guard;

/** The rule (and message) the guard's rules give when each rule is handed every command, unfiltered. */
function withoutIndex(command: string): { rule: string; message: string } | undefined {
  const { analysis, deletes } = checkCommand(command, guard);
  const all = analysis.invocations;
  const facts: Facts = {
    analysis,
    deletes,
    context: guard.context,
    named: (names) => all.filter((invocation) => names.includes(invocation.name)),
    where: () => all,
    shared: new Map(),
  };
  for (const rule of guard.rules) {
    const message = rule.check(facts);
    if (message !== undefined) return { rule: rule.id, message };
  }
  return undefined;
}

/** The guard's own answer, leaving out the refusals that come after the rules (unreadable line, unknown command name). */
function withIndex(command: string): { rule: string; message: string } | undefined {
  const { violation } = checkCommand(command, guard);
  return violation === undefined || violation.rule === "unparseable" || violation.rule === "unresolved-command" ? undefined : violation;
}

// [line, the rule that must refuse it]
const slips: [string, string][] = [
  // disk-overwrite: by name, wrapped, by full path, multi-call, prefixed, aliased, nested, by redirect only.
  ["dd if=/dev/zero of=/dev/sda", "disk-overwrite"],
  ["sudo dd if=/dev/zero of=/dev/sda", "disk-overwrite"],
  ["/bin/dd if=/dev/zero of=/dev/sda", "disk-overwrite"],
  ["fallocate -p -o 0 -l 1G /dev/sda", "disk-overwrite"],
  ["/usr/bin/env dd if=/dev/zero of=/dev/sda", "disk-overwrite"],
  ["busybox dd if=/dev/zero of=/dev/sda", "disk-overwrite"],
  ["command dd if=/dev/zero of=/dev/sda", "disk-overwrite"],
  ["exec dd if=/dev/zero of=/dev/sda", "disk-overwrite"],
  ["nice -n 5 timeout 10 ionice -c3 dd if=/dev/zero of=/dev/sda", "disk-overwrite"],
  ["alias wipe=dd\nwipe if=/dev/zero of=/dev/sda", "disk-overwrite"],
  ["bash -c 'dd if=/dev/zero of=/dev/sda'", "disk-overwrite"],
  ["echo 'dd if=/dev/zero of=/dev/sda' | sh", "disk-overwrite"],
  ["x=dd; $x if=/dev/zero of=/dev/sda", "disk-overwrite"],
  ["echo x | tee /dev/sda", "disk-overwrite"],
  ["echo x | sudo /usr/bin/tee -a /dev/sdb", "disk-overwrite"],
  ["truncate -s 0 /dev/sda", "disk-overwrite"],
  ["find . -fprint /dev/sda", "disk-overwrite"],
  ["cp image.iso /dev/sdb", "disk-overwrite"],
  ["install image /dev/sdb", "disk-overwrite"],
  ["mv image /dev/sdb", "disk-overwrite"],
  ["rsync image /dev/sdb", "disk-overwrite"],
  ["ddrescue /dev/sdb /dev/sdc map.log", "disk-overwrite"],
  ["pv -o /dev/sda image.raw", "disk-overwrite"],
  ["cat -t /dev/sda image.raw", "disk-overwrite"],
  ["shred /dev/sda", "disk-overwrite"],
  ["wipefs -a /dev/sda", "disk-overwrite"],
  ["blkdiscard /dev/nvme0n1", "disk-overwrite"],
  ["sg_format --format /dev/sg1", "disk-overwrite"],
  ["nwipe /dev/sda", "disk-overwrite"],
  ["dcfldd if=img of=/dev/sdb", "disk-overwrite"],
  ["dc3dd if=img of=/dev/sdb", "disk-overwrite"],
  ["badblocks -w /dev/sdb", "disk-overwrite"],
  ["nvme format /dev/nvme0n1", "disk-overwrite"],
  ["cryptsetup luksFormat /dev/sdb", "disk-overwrite"],
  ["mdadm --zero-superblock /dev/sdb1", "disk-overwrite"],
  ["pvcreate /dev/sdb", "disk-overwrite"],
  ["pvremove /dev/sdb", "disk-overwrite"],
  ["zpool create tank /dev/sdb", "disk-overwrite"],
  ["hdparm --security-erase pass /dev/sda", "disk-overwrite"],
  ["> /dev/sda", "disk-overwrite"],
  [": > /dev/sda", "disk-overwrite"],
  ["echo x > /dev/sda", "disk-overwrite"],
  ["npm run build > /dev/sda", "disk-overwrite"],
  ["{ echo x; } > /dev/sda", "disk-overwrite"],
  ["f() { echo x; }; f > /dev/sda", "disk-overwrite"],
  ["python3 -c \"open('/dev/sda', 'wb').write(b'0')\"", "disk-overwrite"],
  ["/usr/bin/python3.12 -c \"open('/dev/sda', 'wb').write(b'0')\"", "disk-overwrite"],
  ["pypy3 -c \"open('/dev/sda', 'wb').write(b'0')\"", "disk-overwrite"],
  ["node -e \"require('fs').writeFileSync('/dev/sda', 'x')\"", "disk-overwrite"],
  ['sudo env perl -e \'open(F, ">", "/dev/sda")\'', "disk-overwrite"],
  // mkfs: every spelling of the formatters.
  ["mkfs /dev/sdb", "mkfs"],
  ["mkfs.ext4 /dev/sdb1", "mkfs"],
  ["/sbin/mkfs.xfs /dev/sdb", "mkfs"],
  ["sudo mke2fs /dev/sdb", "mkfs"],
  ["busybox mkswap /dev/sdb2", "mkfs"],
  ["command mkfs.vfat /dev/sdc1", "mkfs"],
  ["sh -c 'mkfs.btrfs $DEV'", "mkfs"],
  // write-etc: by writer name, by redirect from any command, by one-liner.
  ["echo x > /etc/hosts", "write-etc"],
  ["printf x >> /etc/profile", "write-etc"],
  ["> /etc/motd", "write-etc"],
  ["echo x | sudo tee /etc/sudoers", "write-etc"],
  ["sed -i s/a/b/ /etc/hosts", "write-etc"],
  ["/bin/cp x /etc/passwd", "write-etc"],
  ["busybox touch /etc/nologin", "write-etc"],
  ["python3 -c \"open('/etc/passwd', 'a').write('x')\"", "write-etc"],
  ["ruby -e \"File.write('/etc/hosts', 'x')\"", "write-etc"],
  ["awk 'BEGIN { print 1 > \"/etc/hosts\" }'", "write-etc"],
  // fork-bomb: one-liners of every interpreter name.
  ["python3 -c 'import os\nwhile True: os.fork()'", "fork-bomb"],
  ["/usr/bin/python -c 'import os\nwhile True: os.fork()'", "fork-bomb"],
  ["sudo perl -e 'fork while fork'", "fork-bomb"],
  ["env ruby -e 'loop { fork }'", "fork-bomb"],
  ["nodejs -e 'for(;;) require(\"child_process\").fork(__filename)'", "fork-bomb"],
];

// Lines no rule refuses: the index must not invent a refusal either.
const harmless = [
  "echo x > build.log",
  "tee out.txt < in.txt",
  "python3 -c 'print(1)'",
  "mkdir -p build && cp a build/",
  "cat /dev/sda > /dev/null",
  "mkfsx /dev/sdb",
  "dd if=/dev/sda of=disk.img",
];

describe("the rules' index by command name lets no command slip past", () => {
  it.each(slips)("%s → %s", (command, rule) => {
    expect(withIndex(command)?.rule).toBe(rule);
    expect(withIndex(command)).toEqual(withoutIndex(command));
  });

  it.each(harmless)("%s: no rule refuses it, with or without the index", (command) => {
    expect(withIndex(command)).toBeUndefined();
    expect(withoutIndex(command)).toBeUndefined();
  });

  it("every name diskWritten reads has a line above that a write to a device through it is refused by", () => {
    const lines = slips.filter(([, rule]) => rule === "disk-overwrite").map(([command]) => command);
    const unread = [...deviceWriters].filter((name) => !lines.some((line) => new RegExp(`(^|[\\s/])${name} `).test(line)));
    expect(unread).toEqual([]);
  });

  it.each([...corpusLines("catastrophic"), ...corpusLines("benign")])("corpus: %s decides the same with and without the index", (command) => {
    expect(withIndex(command)).toEqual(withoutIndex(command));
  });
});

describe("Facts.where", () => {
  const lines = ["a; b > x; a | c; d; b; e 2>&1; a", "for f in 1 2; do a; b >> y; done; c", "x=1; > z; a $(b > q; c)", ""];
  const tests: [string, (name: string) => boolean][] = [
    ["nothing", () => false],
    ["everything", () => true],
    ["a", (name) => name === "a"],
    ["a or c", (name) => name === "a" || name === "c"],
  ];
  for (const line of lines) {
    for (const [what, test] of tests) {
      for (const redirecting of [false, true]) {
        it(`${JSON.stringify(line)}: ${what}${redirecting ? ", and every redirect" : ""}, in source order`, () => {
          const { analysis } = checkCommand(line, guard);
          const expected = analysis.invocations.filter((invocation) => test(invocation.name) || (redirecting && invocation.redirects.length > 0));
          expect(indexByName(analysis.invocations).where(test, redirecting)).toEqual(expected);
        });
      }
    }
  }
});
