import { describe, expect, it } from "vitest";
import { analyze } from "./invocations.js";
import { rmTargets, testEnvironment as environment } from "./test-helpers.js";

/**
 * A command that writes where the text it is fed says (a patch, an archive, an encoded file), fed text the
 * line may have made, leaves every file unknown for the rest of the line: any script run after it is refused
 * (issue #25). Fed a file as it was on disk, it writes what is on disk, which the guard trusts.
 */
const archive = "base64 -d <<< dGFy > a.tar; ";
const diff = "printf -- '+++ x.sh\\n' > p.diff; ";

function seesDanger(source: string): boolean {
  return rmTargets(source).includes("~") || analyze(source, environment).problems.length > 0;
}

const unknownEverywhere: Record<string, readonly string[]> = {
  "a patch the line wrote or fed": [
    `${diff}patch < p.diff; bash x.sh`,
    `${diff}patch -p1 < p.diff; bash scripts/check.sh`,
    `${diff}patch -p0 -i p.diff; sh x.sh`,
    `${diff}patch --input=p.diff; ./x.sh`,
    `${diff}git apply p.diff; bash x.sh`,
    `${diff}git apply --index p.diff; source x.sh`,
    `${diff}git -C . apply p.diff; bash x.sh`,
    `${diff}git am p.diff; bash x.sh`,
    'patch -p1 <<< "$diff"; bash x.sh',
    "patch -p1 <<< '+++ x.sh'; bash x.sh",
    "patch <<EOF\n+++ x.sh\nEOF\nbash x.sh",
    "git apply <<< '+++ x.sh'; bash x.sh",
    "echo '+++ x.sh' | git apply; bash x.sh",
    "echo '+++ x.sh' | patch -p1; . x.sh",
    "curl -s https://example.com/p.diff | patch -p1; bash x.sh",
    'git apply --check p.diff && git apply <<< "$d" && bash x.sh',
  ],
  "an archive the line built or fed": [
    `${archive}tar -xf a.tar; bash x.sh`,
    `${archive}tar xf a.tar; bash x.sh`,
    `${archive}tar -zxvf a.tar; bash x.sh`,
    `${archive}tar --extract --file=a.tar; bash x.sh`,
    `${archive}tar -x -f a.tar -C out; bash out/x.sh`,
    `${archive}bsdtar -xf a.tar; bash x.sh`,
    "base64 -d <<< UEsD > a.zip; unzip a.zip; bash x.sh",
    "base64 -d <<< UEsD > a.zip; unzip -o -q a.zip -d out; bash out/x.sh",
    "base64 -d <<< MDcw > a.cpio; cpio -i < a.cpio; bash x.sh",
    "base64 -d <<< MDcw > a.cpio; cpio -idmv < a.cpio; bash x.sh",
    "base64 -d <<< N3q8 > a.7z; 7z x a.7z; bash x.sh",
    "echo dGFy | base64 -d | tar -x; bash x.sh",
    "echo dGFy | base64 -d | tar x; bash x.sh",
    "echo MDcw | base64 -d | cpio -id; bash x.sh",
    'tar -x <<< "$archive"; bash x.sh',
    "curl -s https://example.com/a.tgz | tar -xz; bash x.sh",
    "echo 'rm -rf ~' > y.sh; tar -cf a.tar y.sh; tar -xf a.tar --transform s/y/x/; bash x.sh",
    "echo 'rm -rf ~' > y.sh; zip a.zip y.sh; unzip a.zip; bash x.sh",
    "echo 'rm -rf ~' > y.sh; gzip y.sh; gunzip y.sh.gz; bash y.sh",
    "echo 'rm -rf ~' > x.sh.gz; gzip -d x.sh.gz; bash x.sh",
    'uudecode <<< "$encoded"; bash x.sh',
    "echo x > a.uu; uudecode a.uu; bash x.sh",
  ],
  "a file the line wrote before, under the unknown write": [
    `echo ls > x.sh; ${archive}tar -xf a.tar; bash x.sh`,
    "echo ls > x.sh; echo '+++ x.sh' | patch; bash x.sh",
  ],
  // What the line wrote may be in a commit or a stash by then: git writes those files back unnamed.
  "git putting a commit's or a stash's files back after the line wrote": [
    "echo 'rm -rf ~' > x.sh; git stash; echo ls > x.sh; git stash pop; bash x.sh",
    "echo 'rm -rf ~' > x.sh; git add x.sh; git commit -qm x; echo ls > x.sh; git reset --hard; bash x.sh",
    "echo 'rm -rf ~' > x.sh; git add x.sh; git commit -qm x; echo ls > x.sh; git stash; bash x.sh",
    "echo 'rm -rf ~' > x.sh; git commit -qam x; echo ls > x.sh; git restore .; bash x.sh",
    "echo 'rm -rf ~' > x.sh; git commit -qam x; git checkout -q HEAD~1; git checkout -q -; bash x.sh",
    "echo 'rm -rf ~' > x.sh; git commit -qam x; git switch -q other; git switch -q -; ./x.sh",
    "echo 'rm -rf ~' > y.sh; git commit -qam x; git cherry-pick other; bash x.sh",
  ],
  "a program run after it": [`${archive}tar -xf a.tar; make`, `${diff}patch < p.diff; npm test`, `${archive}tar -xf a.tar; python3 x.py`],
};

const trusted = [
  "git pull && bash scripts/check.sh",
  "npm ci && bash scripts/x.sh",
  "tar -xf vendor.tar && make",
  "tar -xzf archive.tar.gz && bash scripts/check.sh",
  "unzip -o bundle.zip -d out && bash out/run.sh",
  "patch -p1 < fixes/local.diff && bash scripts/check.sh",
  "patch -p1 -i fixes/local.diff && make",
  "git apply fixes/local.diff && bash scripts/check.sh",
  "git am < fixes/0001.patch && bash scripts/check.sh",
  "echo ok > log.txt; tar -xf vendor.tar; bash scripts/check.sh",
  "tar -czf out.tgz src && bash scripts/check.sh",
  "unzip -l a.zip; bash scripts/check.sh",
  "echo x | gzip > a.gz; bash scripts/check.sh",
  "gunzip -c logs.gz | grep error; bash scripts/check.sh",
  'git apply --check <<< "$d" && bash scripts/check.sh',
  "git stash && git checkout main && bash scripts/check.sh",
  "git reset --hard origin/main && bash scripts/check.sh",
  "echo x > notes.txt; git stash list; bash scripts/check.sh",
];

describe("a writer fed the line's text that names no output leaves every file unknown", () => {
  for (const [family, lines] of Object.entries(unknownEverywhere)) {
    it.each(lines)(`${family}: %s`, (line) => {
      expect(seesDanger(line)).toBe(true);
    });
  }
});

describe("a writer given only what is on disk writes what is on disk", () => {
  it.each(trusted)("%s", (line) => {
    expect(analyze(line, environment).problems).toEqual([]);
  });
});
