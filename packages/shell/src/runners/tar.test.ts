import { describe, expect, it } from "vitest";
import { readingOf, runs } from "./test-helpers.js";

describe("tar as a runner", () => {
  it.each([
    "tar -xzf a.tgz",
    "tar -czf out.tgz src",
    "tar xzf a.tgz",
    "tar cvf out.tar src lib",
    "tar -tf a.tar",
    "tar --list --file=a.tar",
    "tar -xf a.tar -C build",
    "tar -xf a.tar --strip-components=1",
    "tar -xf a.tar --strip 1",
    "tar --extract --file a.tar --directory=out",
    "tar -cJf a.tar.xz --exclude=node_modules .",
    "tar --zstd -cf a.tar.zst src",
    "tar -cf /dev/null --checkpoint=100 --checkpoint-action=dot .",
    "tar -cf /dev/null --checkpoint-action=echo='%u' .",
    "tar -xf a.tar --force-local",
    "tar cf a.tar ./*",
    "tar cf a.tar -- *",
    "tar czf a.tgz src/*",
    "tar --verbatim-files-from -T list.txt -cf a.tar",
    "TAR_OPTIONS=--no-same-owner tar xf a.tar",
    "tar -xf C:backup.tar --force-local",
  ])("%s runs nothing more", (command) => {
    expect(readingOf(command)).toBe("plain");
  });

  it.each([
    ["tar -cf /dev/null --checkpoint=1 --checkpoint-action=exec='rm -rf ~' .", "rm -rf ~"],
    ["tar cf /dev/null --checkpoint-act=exec='rm -rf ~' .", "rm -rf ~"],
    ["tar cf /dev/null --checkpoint-a exec='rm -rf ~' .", "rm -rf ~"],
    ["tar -xf a.tar --to-command='rm -rf ~'", "rm -rf ~"],
    ["tar -xf a.tar --to-com='rm -rf ~'", "rm -rf ~"],
    ["tar -I 'rm -rf ~' -xf a.tar", "rm -rf ~"],
    ["tar -xI'rm -rf ~' -f a.tar", "rm -rf ~"],
    ["tar -xIf 'rm -rf ~' a.tar", "f"],
    ["tar --use-compress-program='rm -rf ~' -xf a.tar", "rm -rf ~"],
    ["tar --use-comp='rm -rf ~' -xf a.tar", "rm -rf ~"],
    ["tar --rsh-command='rm -rf ~' -xf a.tar", "rm -rf ~"],
    ["tar --rmt-command='rm -rf ~' -xf a.tar", "rm -rf ~"],
    ["TAR_OPTIONS=--to-command=reboot tar xf a.tar", "reboot"],
  ])("%s runs %s", (command, nested) => {
    expect(runs(command, nested)).toBe(true);
  });

  it.each([
    "tar -xf a.tar --frobnicate",
    "tar -xf a.tar --c",
    "tar -xf a.tar -F script.sh",
    "tar -cf a.tar --info-script=script.sh .",
    "tar -cf a.tar --new-volume-script=s.sh .",
    "tar -cf /dev/null --checkpoint-action=execute=x .",
    "tar -cf /dev/null --checkpoint-action=unknown .",
    "tar -xf host:a.tar",
    "tar -xf user@host:/a.tar",
    'tar --to-command="$CMD" -xf a.tar',
    "tar cf a.tar *",
    "tar czf a.tgz *.txt",
    "tar cf a.tar ?x",
    "tar -T list.txt -cf a.tar",
    "tar --files-from=list.txt -cf a.tar",
    "TAR_OPTIONS='--to-command=rm\\ -rf\\ ~' tar xf a.tar",
    "zip -r a.zip *",
    "rsync -a * host:dst/",
  ])("%s is unknown", (command) => {
    expect(readingOf(command)).toBe("unknown");
  });
});
