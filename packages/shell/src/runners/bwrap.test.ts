import { describe, expect, it } from "vitest";
import { readingOf, runs } from "./test-helpers.js";

const sandbox =
  "/usr/bin/bwrap --die-with-parent --new-session --unshare-user-try --unshare-ipc --unshare-pid --unshare-cgroup-try --unshare-net --ro-bind / / --dev /dev --proc /proc --tmpfs /tmp --bind /p /p --bind /w /w --ro-bind /r /r --tmpfs /h --remount-ro /h --ro-bind /dev/null /h/.x -- /usr/bin/bash -c";

describe("bwrap: the command after its options is read", () => {
  it.each([
    ["bwrap --ro-bind / / rm -rf ~", "rm -rf"],
    ["bwrap --dev-bind / / -- sh -c 'rm -rf ~'", "rm -rf"],
    ["bwrap --bind / / --chmod 0755 /x --setenv A b rm -rf ~", "rm -rf"],
    ["bwrap --symlink a b --file 3 /x --unshare-all --share-net rm -rf ~", "rm -rf"],
    ["/usr/bin/bwrap --ro-bind / / -- /bin/rm -rf ~", "rm -rf"],
    ["sudo bwrap --ro-bind / / rm -rf ~", "rm -rf"],
    ["bwrap --ro-bind / / bwrap --ro-bind / / rm -rf ~", "rm -rf"],
    [`${sandbox} 'rm -rf ~'`, "rm -rf"],
    [`${sandbox} 'git status'`, "git status"],
    [`${sandbox} 'npm test && git status'`, "npm test"],
    ["bwrap --ro-bind / / --ro-bind / / --ro-bind / / rm -rf ~", "rm -rf"],
  ])("%s runs %s", (line, nested) => {
    expect(runs(line, nested), readingOf(line)).toBe(true);
  });
});

describe("bwrap: what cannot be read is unknown", () => {
  it.each([
    "bwrap --args 3 ls",
    "bwrap --seccomp 3 --ro-bind / / ls",
    "bwrap --add-seccomp-fd 3 ls",
    "bwrap --ro-bnd / / ls",
    "bwrap --ro-bind /",
    "bwrap --chmod 0755",
    "bwrap --bind",
    "bwrap --overlay-src / ls",
    "bwrap --ro-b / / ls",
  ])("%s is unknown", (line) => {
    expect(readingOf(line)).toBe("unknown");
  });
});
