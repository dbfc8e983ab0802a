import type { PluginStore } from "@toolgate/plugin-sdk";
import { describe, expect, it } from "vitest";
import { checkCommand } from "./check.js";
import blockDangerousShell from "./index.js";
import { resolveOptions } from "./options.js";

// A fixed machine: the project is /home/dev/project, the user's home /home/dev.
const environment = { projectRoot: "/home/dev/project", home: "/home/dev" };
const guard = resolveOptions({}, environment).guard;
const verdictOf = (command: string) => (checkCommand(command, guard).violation === undefined ? "allow" : "block");

function table(name: string, verdict: "allow" | "block", commands: readonly string[]) {
  describe(name, () => {
    it.each(commands)(`%s → ${verdict}`, (command) => {
      expect(verdictOf(command)).toBe(verdict);
    });
  });
}

table("runners that would run a catastrophic command are refused", "block", [
  "git -c core.pager='rm -rf ~' log",
  "git -c core.fsmonitor='rm -rf ~' status",
  "git -c alias.x='!rm -rf ~' x",
  "git --exec-path=/tmp status",
  "git grep -O'rm -rf ~' foo",
  "git grep --open-files='rm -rf ~' foo",
  "git rebase --exe 'rm -rf ~' HEAD~1",
  "git submodule foreach 'rm -rf ~'",
  "git -C /tmp/evil status",
  "git config core.hooksPath /tmp/h",
  "GIT_PAGER='rm -rf ~' git log",
  "tar -cf /dev/null --checkpoint=1 --checkpoint-action=exec='rm -rf ~' .",
  "tar cf /dev/null --checkpoint-act=exec='rm -rf ~' .",
  "tar -xf a.tar --to-command='rm -rf ~'",
  "tar -I 'rm -rf ~' -xf a.tar",
  "tar -xf a.tar --frobnicate",
  "sed -n '1e rm -rf ~' f",
  "echo x | sed 's/x/rm -rf ~/e'",
  "sed -f evil.sed f",
  "vim -c '!rm -rf ~' f",
  "less '+!rm -rf ~' f",
  "man -P 'rm -rf ~' ls",
  "make -f /dev/stdin <<< $'all:\\n\\trm -rf ~'",
  "make CC='rm -rf ~' all",
  "ssh -o ProxyCommand='rm -rf ~' host",
  "rsync -e 'rm -rf ~' a host:b",
  "zip -TT 'rm -rf ~' out.zip f",
  "gdb -ex 'shell rm -rf ~'",
  "sqlite3 db '.shell rm -rf ~'",
  "psql -c '\\! rm -rf ~'",
  "mysql -e 'system rm -rf ~'",
  "at now <<< 'rm -rf ~'",
  "crontab evil.cron",
  "tmux send-keys -t x 'rm -rf ~' Enter",
  "tmux new -d 'rm -rf ~'",
  "screen -dmS x rm -rf ~",
  "flock /tmp/l -c 'rm -rf ~'",
  "nsenter -t 1 -m rm -rf ~",
  "unshare -r rm -rf ~",
  "timeout --frobnicate 10 rm -rf ~",
  "uvx rm -rf ~",
  "nodemon --exec 'rm -rf ~'",
  "watchexec 'rm -rf ~'",
  "entr -s 'rm -rf ~' < files",
  "apt-get -o APT::Update::Pre-Invoke::='rm -rf ~' update",
  "dpkg --pre-invoke='rm -rf ~' -i x.deb",
  "PAGER='rm -rf ~' man ls",
  "LD_PRELOAD=/tmp/x.so ls",
  'awk \'BEGIN { print "rm -rf ~" | "sh" }\'',
]);

table("benign forms of runners stay allowed", "allow", [
  "git status",
  "git log --oneline -5",
  "git diff HEAD~1",
  'git commit -m "x"',
  "git -C sub status",
  "git -c color.ui=always log",
  "git config user.name Ada",
  "git grep -n TODO",
  "git rebase -i HEAD~3",
  "tar -xzf a.tgz",
  "tar -czf out.tgz src",
  "tar xzf a.tgz",
  "sed -n '1,5p' f",
  "sed -i 's/a/b/' f",
  "sed -i.bak -e 's/a/b/g' f",
  "find . -name '*.log' -delete",
  "find . -name node_modules -prune -exec rm -rf {} +",
  "xargs -n1 echo",
  "npx tsc --noEmit",
  "timeout 10 npm test",
  "env NODE_ENV=test npm test",
  "make test",
  "make -j4 build",
  "ssh host ls",
  "rsync -avz src/ dst/",
  "vim +42 f",
  "less -R f",
  "sqlite3 db 'select 1'",
  "psql -c 'select 1' db",
  "crontab -l",
  "tmux ls",
  "trap 'rm -rf \"$TMP\"' EXIT",
  "cd build && rm -rf *",
]);

table("recursive deletes of a target only known at run time, with or without -f", "block", [
  "rm -r $UNKNOWN",
  "rm -rf $UNKNOWN",
  'rm -r "$(cat list)"',
  "rm -r `cat list`",
  "rm -r *$X*",
  "rm -R ${DIR}/",
  "rm --recursive $D",
  "rm --recur $D",
  "rm -r \uF8FF",
  "rm -r build/\uF8FF",
  "cat list | xargs rm -r",
  "find $D -delete",
  "sudo rm -r $D",
]);

table("rm's abbreviated long options count as the options they abbreviate", "block", [
  "rm --recur ~",
  "rm --r ~",
  "rm --recursive ~",
  "rm --re --f ~",
  "rm --no-pres -r /",
  "rm --no-preserve-root --recur /",
  "rm ~ --recur",
  "rm -Zr ~",
  // Outside the project only forced deletes are refused: `--for` must be read as `--force`.
  "rm --recur --for /srv/www",
  "rm --fo -R /srv/www",
]);

table("literal deletes inside the project stay allowed", "allow", [
  "rm -r build",
  "rm -rf ./dist",
  "rm --recur build",
  "rm -r -- -weird",
  "rm -rf node_modules/.cache",
]);

table("device paths are expanded and normalised before they are classified", "block", [
  "dd if=/dev/zero of=/dev/sda",
  "dd if=/dev/zero of=/dev//sda",
  "dd if=/dev/zero of=/dev/./sda",
  "dd if=/dev/zero of=/./dev/sda",
  "dd if=/dev/zero of=/dev/../dev/sda",
  "dd if=/dev/zero of=/dev/disk/by-id/ata-Samsung_SSD",
  "dd if=/dev/zero of=/dev/mapper/root",
  "dd if=/dev/zero of=/dev/nvme0n1",
  "dd if=/dev/zero of=/dev/mmcblk0",
  "dd if=/dev/zero of=/dev/vg0/root",
  "dd if=img of=/dev/root",
  "cd /dev && dd if=/dev/zero of=sda",
  "d=/dev/sda; dd if=/dev/zero of=$d",
  "dd if=/dev/zero of=$DEV",
  'dd if=/dev/zero of="$(lsblk -no name | head -1)"',
  "cat /dev/zero > /dev/s\\da",
  "cat /dev/zero > /dev//sda",
  "cat /dev/zero > /./dev/nvme0n1",
  "d=/dev/sda; cat /dev/zero > $d",
  "for d in /tmp/x /dev/sdb; do cat /dev/zero > $d; done",
  "echo 1 > /sys/block/sda/device/delete",
  "echo 1 > /sys/class/block/sda/device/delete",
  "shred $DEV",
  "shred -n1 /dev//sdb",
  "wipefs -a $DEV",
  "wipefs -a /dev/./sdb",
  "mkfs.ext4 $DEV",
  "mkfs.ext4 -L data /dev//sdb1",
  "blkdiscard /dev/nvme0n1",
  "cd /dev; mkfs.ext4 sdb1",
  "find . -fprint /dev/sda",
  "find . -fprintf /dev//sdb '%p'",
]);

table("writes to ordinary files and pseudo-devices stay allowed", "allow", [
  "echo hi > /dev/null",
  "echo hi 2> /dev/stderr",
  "echo hi > $LOG",
  "dd if=/dev/zero of=out.img bs=1M count=1",
  "mkfs.ext4 -L data disk.img",
  "shred -u secret.txt",
  "echo x > /dev/tty",
  "exec 3> /dev/fd/3",
  "dd if=/dev/urandom of=./key bs=32 count=1",
]);

function plugin() {
  return blockDangerousShell(
    {},
    { cwd: environment.projectRoot, policyPaths: [], session: { id: "s" }, log: console, on: () => () => {}, store: {} as PluginStore },
  ) as unknown as {
    hooks: {
      pre_tool_call(call: { id: string; name: string; args: Record<string, unknown>; kind?: string }): { action: string; message?: string } | undefined;
    };
  };
}

const decide = (name: string, args: Record<string, unknown>, kind?: string) =>
  plugin().hooks.pre_tool_call({ id: "1", name, args, ...(kind === undefined ? {} : { kind }) })?.action ?? "allow";

describe("every field an agent runs something through is read as the agent reads it", () => {
  it.each([
    ["write_stdin", { session_id: 1, chars: "rm -rf ~\n" }],
    ["write_stdin", { session_id: 1, chars: "rm -rf ~\r" }],
    ["send_input", { input: "rm -rf ~\n" }],
    ["terminal_input", { text: "cd / && rm -rf *\n" }],
    ["mcp__term__write_stdin", { chars: "rm -rf ~\n" }],
    ["write_stdin", { session_id: 1, chars: "rm -rf " }],
    ["write_stdin", { session_id: 1, chars: "rm -rf /tmp/x\x7f\x7f\x7f\x7f\x7f~\n" }],
    ["write_stdin", { session_id: 1, chars: "\x15rm -rf ~\n" }],
    ["write_stdin", { session_id: 1, chars: "!!\n" }],
    ["write_stdin", { session_id: 1, chars: "!rm\n" }],
    ["write_stdin", { session_id: 1, chars: "^build^~\n" }],
    ["write_stdin", { session_id: 1, chars: ["rm", "-rf", "~"] }],
    ["exec_command", { cmd: "rm -rf ~" }],
    ["exec_command", { cmd: "rm -rf *", workdir: "/" }],
    ["exec_command", { cmd: "rm -rf *", workdir: "/", cwd: "/home/dev/project/build" }],
    ["run_shell_command", { command: "rm -rf *", dir_path: "/home/dev", directory: "build" }],
    ["run_shell_command", { command: "rm -rf *", dir_path: "/home/dev" }],
    ["bash", { command: "ls", cwd: 42 }],
    ["bash", { command: "rm -rf *", cwd: "build", workdir: "/" }],
  ])("%s %j → block", (name, args) => {
    expect(decide(name, args)).toBe("block");
  });

  it.each([
    ["write_stdin", { session_id: 1, chars: "" }],
    ["write_stdin", { session_id: 1, chars: "\x03" }],
    ["write_stdin", { session_id: 1, chars: "npm test\n" }],
    ["write_stdin", { session_id: 1, chars: "y\n" }],
    ["send_input", { input: "ls -la\n" }],
    ["exec_command", { cmd: "rm -rf *", workdir: "build" }],
    ["exec_command", { cmd: "rm -rf *", workdir: "build", cwd: "/home/dev/project/build" }],
    ["run_shell_command", { command: "ls", dir_path: "src" }],
    ["bash", { command: "rm -rf dist" }],
  ])("%s %j → allow", (name, args) => {
    expect(decide(name, args)).toBe("allow");
  });
});
