import { describe, expect, it } from "vitest";
import { analyze, interpreterEffects, stdinTexts } from "./index.js";

const environment = { cwd: "/project", home: "/home/ada", tmp: "/tmp" };

/** The effects of the first interpreter invocation on the line. */
function effectsOf(command: string) {
  const invocation = analyze(command, environment).invocations.find((candidate) => /^(python3?|node|perl|ruby|php|awk|bun)$/.test(candidate.name));
  return invocation === undefined ? undefined : interpreterEffects(invocation, () => stdinTexts(invocation));
}

describe("interpreterEffects", () => {
  it.each([
    ["python3 -c \"open('/etc/hosts', 'a').write('x')\"", "/etc/hosts"],
    ["python3 -c \"open('/etc/hosts', mode='wb')\"", "/etc/hosts"],
    ["python3 -c \"import os; os.open('/dev/sda', os.O_WRONLY)\"", "/dev/sda"],
    ["python3 -c \"import pathlib; pathlib.Path('/etc/motd').write_text('x')\"", "/etc/motd"],
    ["python3 -c \"import shutil; shutil.copyfile('a', '/etc/b')\"", "/etc/b"],
    ["node -e \"require('fs').writeFileSync('/etc/hosts', '')\"", "/etc/hosts"],
    ["node -e \"require('fs').openSync('/dev/sdb', 'r+')\"", "/dev/sdb"],
    ["node -e \"fs.createWriteStream('/tmp/x')\"", "/tmp/x"],
    ["ruby -e \"File.write('/etc/x', '')\"", "/etc/x"],
    ["ruby -e \"File.open('/etc/x', 'a') { |f| f << 1 }\"", "/etc/x"],
    ['perl -e \'open(my $f, ">", "/etc/x")\'', "/etc/x"],
    ["perl -e 'open(F, \">>/etc/x\")'", "/etc/x"],
    ["php -r \"file_put_contents('/etc/x', 1);\"", "/etc/x"],
    ["awk '{ print > \"/etc/x\" }' in", "/etc/x"],
    ["echo \"open('/etc/x', 'w')\" | python3", "/etc/x"],
  ])("%s writes %s", (command, target) => {
    expect(effectsOf(command)?.writes.map((write) => write.target)).toContain(target);
  });

  // Every spelling of the copy and move calls, which write their second argument (`FileUtils.cp_r` was read as
  // `FileUtils.cp` followed by `_r(…)`, its destination lost).
  it.each([
    ...["shutil.copy", "shutil.copyfile", "shutil.copy2", "shutil.copytree", "shutil.move", "os.rename", "os.replace", "os.link", "os.symlink"].map(
      (call) => `python3 -c "import shutil, os; ${call}('a', '/etc/x')"`,
    ),
    ...["copyFileSync", "fs.copyFile", "fs.cpSync", "renameSync", "fs.rename", "fs.linkSync", "symlinkSync", "Deno.copyFile", "Deno.renameSync"].map(
      (call) => `node -e "${call}('a', '/etc/x')"`,
    ),
    ...["cp", "mv", "copy", "move", "cp_r", "install", "ln_sf", "ln_s"].map((call) => `ruby -e "FileUtils.${call}('a', '/etc/x')"`),
    ...["File.rename", "File.symlink", "File.link"].map((call) => `ruby -e "${call}('a', '/etc/x')"`),
    ...["copy", "rename"].map((call) => `php -r "${call}('a', '/etc/x');"`),
    `ruby -e "FileUtils.cp 'a', '/etc/x'"`,
  ])("%s writes /etc/x", (command) => {
    expect(effectsOf(command)?.writes.map((write) => write.target)).toContain("/etc/x");
  });

  it.each([
    "python3 -c \"print(open('/etc/hosts').read())\"",
    "python3 -c \"open('/etc/hosts', 'r')\"",
    "node -e \"require('fs').readFileSync('/etc/hosts')\"",
    "ruby -e \"puts File.read('/etc/hosts')\"",
    'perl -e \'open(F, "<", "/etc/hosts")\'',
    "perl -e 'open(F, \"/etc/hosts\")'",
  ])("%s writes nothing", (command) => {
    expect(effectsOf(command)?.writes).toEqual([]);
  });

  it.each([
    ["python3 -c 'import os\nwhile True: os.fork()'", true],
    ["perl -e 'fork while fork'", true],
    ["ruby -e 'loop { fork }'", true],
    ["node -e \"for(;;) require('child_process').fork(__filename)\"", true],
    ["php -r 'while (1) { pcntl_fork(); }'", true],
    ["python3 -c 'import os; print(os.fork())'", false],
    ["python3 -c 'while True: pass'", false],
    ["ruby -e 'pid = fork { exit }; Process.wait(pid)'", false],
  ])("%s is a fork bomb: %s", (command, bomb) => {
    expect(effectsOf(command)?.forkBomb).toBe(bomb);
  });
});
