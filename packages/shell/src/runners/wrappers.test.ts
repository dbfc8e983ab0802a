import { describe, expect, it } from "vitest";
import { readingOf, runs } from "./test-helpers.js";

describe("wrappers read only in their known forms", () => {
  it.each([
    "timeout 10 npm test",
    "timeout -s KILL 10 npm test",
    "timeout --signal=TERM --kill-after=5 10 npm test",
    "timeout --kill 5 10 npm test",
    "env NODE_ENV=test npm test",
    "env -i PATH=/bin ls",
    "env - ls",
    "env -u HOME ls",
    "env --chdir=sub ls",
    "sudo -u root ls",
    "sudo -E npm ci",
    "sudo --preserve-env=PATH ls",
    "nice -n 5 make",
    "nice -10 make",
    "nohup npm start",
    "stdbuf -oL tail f",
    "ionice -c3 make",
    "chrt -b 0 make",
    "taskset -c 0 make",
    "flock /tmp/l make",
    "xargs -n1 echo",
    "xargs -0 -I{} echo {}",
    "xargs -r -P4 -n 2 echo",
    "time make",
    "setsid -f npm start",
    "chroot /srv/root ls",
  ])("%s runs nothing more", (command) => {
    expect(readingOf(command)).toBe("plain");
  });

  it.each([
    ["flock /tmp/l -c 'rm -rf ~'", "rm -rf ~"],
    ["flock -x /tmp/l --command 'rm -rf ~'", "rm -rf ~"],
    ["nsenter -t 1 -m rm -rf ~", "rm -rf ~"],
    ["unshare -r rm -rf ~", "rm -rf ~"],
    ["unshare --map-root-user --mount rm -rf ~", "rm -rf ~"],
    ["systemd-run --user rm -rf ~", "rm -rf ~"],
    ["sudo nsenter -a -t 1 rm -rf ~", "rm -rf ~"],
    ["PAGER='rm -rf ~' man ls", "rm -rf ~"],
    ["EDITOR='rm -rf ~' crontab -l", "rm -rf ~"],
    ["LESSOPEN='|rm -rf ~ %s' less f", "rm -rf ~"],
    ["RSYNC_RSH='rm -rf ~' rsync a h:b", "rm -rf ~"],
  ])("%s runs %s", (command, nested) => {
    expect(runs(command, nested)).toBe(true);
  });

  it.each([
    "timeout --frobnicate 10 rm -rf ~",
    "sudo --frobnicate rm x",
    "sudo -Z rm x",
    "env --frob ls",
    "nice --frob ls",
    "xargs --frob echo",
    "xargs -o vim",
    "systemd-run -p ExecStartPre=/bin/x true",
    "LD_PRELOAD=/tmp/x.so ls",
    "NODE_OPTIONS='--require /tmp/x.js' npm test",
    "PERL5OPT=-Mx perl a.pl",
    "VIMINIT=':!rm -rf ~' vim f",
    "EXINIT=x ex f",
    "PSQLRC=/tmp/rc psql",
    "LESS='+!rm -rf ~' less f",
    'flock /tmp/l -c "$CMD"',
  ])("%s is unknown", (command) => {
    expect(readingOf(command)).toBe("unknown");
  });
});
