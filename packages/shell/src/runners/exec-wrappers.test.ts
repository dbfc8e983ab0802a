import { describe, expect, it } from "vitest";
import { analyze } from "../invocations.js";
import { readingOf, runs } from "./test-helpers.js";

// taskset is followed by `unwrap`: the command it runs is the line's own command, not a nested one.
describe("taskset: the command after its mask is the command", () => {
  it.each([
    ["taskset -c 0 rm -rf ~", "rm"],
    ["/usr/bin/taskset -c 0-3 rm -rf ~", "rm"],
    ["taskset 0x1 rm -rf ~", "rm"],
    ["taskset -a -c 0 rm -rf ~", "rm"],
    ["'taskset' -c 0 rm -rf ~", "rm"],
    ["sudo taskset -c 0 rm -rf ~", "rm"],
    ["taskset -c 0 make test", "make"],
  ])("%s runs %s", (line, name) => {
    const analysis = analyze(line, { cwd: "/project", home: "/home/ada", tmp: "/tmp" });
    expect(analysis.invocations.map((invocation) => invocation.name)).toContain(name);
  });
});

// Each wrapper runs the command after its options: the command is read as a nested command.
describe("exec wrappers hand their command on", () => {
  it.each([
    ["proot rm -rf ~", "rm -rf"],
    ["proot -r / -b /home -w / rm -rf ~", "rm -rf"],
    ["proot --rootfs=/ --cwd / rm -rf ~", "rm -rf"],
    ["fakeroot rm -rf ~", "rm -rf"],
    ["fakeroot -- rm -rf ~", "rm -rf"],
    ["fakeroot -u -- sh -c 'rm -rf ~'", "rm -rf"],
    ["prlimit --nofile=10 rm -rf ~", "rm -rf"],
    ["prlimit -n10 --cpu=5 /bin/rm -rf ~", "rm -rf"],
    ["prlimit --nof=10 rm -rf ~", "rm -rf"],
    ["catchsegv rm -rf ~", "rm -rf"],
    ["numactl -C 0 rm -rf ~", "rm -rf"],
    ["numactl --physcpubind=0 --membind 0 rm -rf ~", "rm -rf"],
    ["cgexec -g cpu:x rm -rf ~", "rm -rf"],
    ["cgexec --sticky -g cpu:x -- rm -rf ~", "rm -rf"],
    ["sg grp 'rm -rf ~'", "rm -rf"],
    ["sg grp -c 'rm -rf ~'", "rm -rf"],
    ["script -qc 'rm -rf ~' /dev/null", "rm -rf"],
    ["script -q -c 'rm -rf ~' /dev/null", "rm -rf"],
    ["script --comm 'rm -rf ~' /dev/null", "rm -rf"],
    ["dbus-run-session rm -rf ~", "rm -rf"],
    ["dbus-run-session -- rm -rf ~", "rm -rf"],
    ["flatpak-spawn --host rm -rf ~", "rm -rf"],
    ["flatpak-spawn --host --env=A=1 rm -rf ~", "rm -rf"],
    ["toolbox run rm -rf ~", "rm -rf"],
    ["toolbox run -c fedora rm -rf ~", "rm -rf"],
    ["distrobox enter x -- rm -rf ~", "rm -rf"],
    ["distrobox enter -n x -- rm -rf ~", "rm -rf"],
    ["schroot -- rm -rf ~", "rm -rf"],
    ["schroot -c jammy -- rm -rf ~", "rm -rf"],
    ["podman unshare rm -rf ~", "rm -rf"],
    ["buildah unshare rm -rf ~", "rm -rf"],
    ["xvfb-run rm -rf ~", "rm -rf"],
    ["xvfb-run -a -s '-screen 0 1x1x8' rm -rf ~", "rm -rf"],
    ["with-contenv rm -rf ~", "rm -rf"],
    ["s6-setuidgid x rm -rf ~", "rm -rf"],
    ["chpst -u x rm -rf ~", "rm -rf"],
    ["daemonize /bin/rm -rf ~", "rm -rf"],
    ["start-stop-daemon -S -x /bin/rm -- -rf ~", "rm -rf"],
    ["start-stop-daemon --start --exec=/bin/rm -- -rf ~", "rm -rf"],
    ["torsocks rm -rf ~", "rm -rf"],
    ["proxychains -q rm -rf ~", "rm -rf"],
    ["proxychains4 -f /etc/p.conf rm -rf ~", "rm -rf"],
    ["tsocks rm -rf ~", "rm -rf"],
    ["eatmydata rm -rf ~", "rm -rf"],
    ["faketime now rm -rf ~", "rm -rf"],
    ["faketime -f '+1d' rm -rf ~", "rm -rf"],
    ["minijail0 rm -rf ~", "rm -rf"],
    ["minijail0 -u x -g y -- rm -rf ~", "rm -rf"],
    ["capsh -- -c 'rm -rf ~'", "rm -rf"],
    ["capsh --drop=cap_sys_admin -- -c 'rm -rf ~'", "rm -rf"],
    ["setpriv --reuid 1 rm -rf ~", "rm -rf"],
    ["setpriv --reuid=1 --regid=1 --init-groups rm -rf ~", "rm -rf"],
    ["linux32 rm -rf ~", "rm -rf"],
    ["setarch x86_64 rm -rf ~", "rm -rf"],
    ["setarch x86_64 -R rm -rf ~", "rm -rf"],
    ["direnv exec . rm -rf ~", "rm -rf"],
    ["nix-shell --run 'rm -rf ~'", "rm -rf"],
    ["nix-shell -p hello --command 'rm -rf ~'", "rm -rf"],
    ["nix develop -c rm -rf ~", "rm -rf"],
    ["nix develop --command rm -rf ~", "rm -rf"],
    ["devbox run rm -rf ~", "rm -rf"],
    ["doppler run -- rm -rf ~", "rm -rf"],
    ["doppler run --command 'rm -rf ~'", "rm -rf"],
    ["op run -- rm -rf ~", "rm -rf"],
    ["aws-vault exec p -- rm -rf ~", "rm -rf"],
    ["env-cmd rm -rf ~", "rm -rf"],
    ["env-cmd -f .env rm -rf ~", "rm -rf"],
    ["cross-env A=1 rm -rf ~", "rm -rf"],
    ["concurrently 'rm -rf ~'", "rm -rf"],
    ["concurrently -k 'npm start' 'rm -rf ~'", "rm -rf"],
    ["shx rm -rf ~", "rm -rf"],
    ["sudo proot rm -rf ~", "rm -rf"],
    ["/usr/bin/fakeroot rm -rf ~", "rm -rf"],
    ["sh -c 'eatmydata rm -rf ~'", "rm -rf"],
  ])("%s runs %s", (line, nested) => {
    expect(runs(line, nested), readingOf(line)).toBe(true);
  });
});

describe("exec wrappers: an option not read, or one that runs something unread, is unknown", () => {
  it.each([
    "proot -q qemu-x86_64 rm -rf ~",
    "proot --bogus rm -rf ~",
    "fakeroot --faked /tmp/f rm -rf ~",
    "dbus-run-session --dbus-daemon=/tmp/x ls",
    "flatpak-spawn --bogus rm",
    "numactl --zzz 0 ls",
    "prlimit --bogus=1 ls",
    "setpriv --bogus ls",
    "capsh == -- -c ls",
    "capsh --shell=/tmp/x -- -c ls",
    "capsh --bogus -- -c ls",
    "nix-shell -i python x.py",
    "nix-shell --zap 'ls'",
    "concurrently --bogus 'ls'",
    "start-stop-daemon -S",
    "devbox run -c /tmp/devbox.json build",
    "env-cmd -r ./.env-cmdrc.js build",
    "echo ~ | xargs fakeroot rm -rf",
    "xargs -0 proot rm -rf < list",
    "find . -print0 | xargs -0 eatmydata rm -rf",
    "xargs bwrap --ro-bind / / rm -rf < list",
    "xargs start-stop-daemon -S -x /bin/rm -- -rf < list",
  ])("%s is unknown", (line) => {
    expect(readingOf(line)).toBe("unknown");
  });
});

describe("exec wrappers with harmless commands stay plain or run only those", () => {
  it.each([
    ["prlimit --nofile=1024 npm test", "npm test"],
    ["xvfb-run -a npm test", "npm test"],
    ["nix develop -c cargo build", "cargo build"],
    ["op run -- npm start", "npm start"],
    ["fakeroot dpkg-deb --build pkg", "dpkg-deb --build"],
    ["concurrently 'npm:watch' 'npm:serve'", "npm:watch"],
    ["direnv exec . npm test", "npm test"],
  ])("%s runs %s", (line, nested) => {
    expect(runs(line, nested), readingOf(line)).toBe(true);
  });
});
