import { describe, expect, it } from "vitest";
import { analyze } from "./invocations.js";
import { rmTargets, testEnvironment as environment } from "./test-helpers.js";

/**
 * A folder copied, moved or synced after the line wrote a file inside it: every path under where it went
 * holds unknown text (issue #25), and so do the files already written there. Folders the line did not
 * write in are copied as they are on disk.
 */
const wrote = "echo 'rm -rf ~' > d/x.sh; ";

function seesDanger(source: string): boolean {
  return rmTargets(source).includes("~") || analyze(source, environment).problems.length > 0;
}

const copies: Record<string, readonly string[]> = {
  cp: [
    `${wrote}cp -r d e; bash e/x.sh`,
    `${wrote}cp -R d e; bash e/d/x.sh`,
    `${wrote}cp -a d/. e/; bash e/x.sh`,
    `${wrote}cp -a d/ e; sh e/x.sh`,
    `${wrote}cp -r ./d /tmp/e; bash /tmp/e/x.sh`,
    `${wrote}cp -rT d e; ./e/x.sh`,
    `${wrote}cp -r -t e d; bash e/d/x.sh`,
    `${wrote}cp -r --target-directory=e d; bash e/d/x.sh`,
    `${wrote}cp -r d sub/../e; source e/x.sh`,
    `${wrote}cd /project; cp -r /project/d e; bash e/x.sh`,
    "echo 'rm -rf ~' > d/sub/x.sh; cp -r d e; bash e/sub/x.sh",
    "echo 'rm -rf ~' > d/sub/x.sh; cp -r d/sub e; bash e/x.sh",
    "echo ls > e/x.sh; echo 'rm -rf ~' > d/x.sh; cp -r d/. e; bash e/x.sh",
  ],
  mv: [`${wrote}mv d e; bash e/x.sh`, `${wrote}mv -f d /tmp/e; bash /tmp/e/x.sh`, `${wrote}mv -t e d; bash e/d/x.sh`],
  rsync: [`${wrote}rsync -a d/ e/; bash e/x.sh`, `${wrote}rsync -av --delete d/ e; bash e/x.sh`, `${wrote}rsync -r d e; bash e/d/x.sh`],
  "other copiers": [`${wrote}ditto d e; bash e/x.sh`, `${wrote}ln -s d e; bash e/x.sh`, `${wrote}ln -sfn d e; bash e/x.sh`],
  "through an archive": [
    `${wrote}tar -C d -cf - . | tar -C e -xf -; bash e/x.sh`,
    `${wrote}tar -cf a.tar -C d .; tar -xf a.tar -C e; bash e/x.sh`,
    `${wrote}tar -cf - d | (cd e && tar -xf -); bash e/d/x.sh`,
    `${wrote}zip -r a.zip d; unzip a.zip -d e; bash e/d/x.sh`,
  ],
};

const asOnDisk = [
  "cp -r public/ build/ && bash build/run.sh",
  "mkdir -p build && cp -r public/* build/ && bash scripts/check.sh",
  "rsync -av src/ backup/ && bash backup/check.sh",
  "echo ok > log.txt; cp -r templates out; bash out/init.sh",
  "echo ls > d/x.sh; cp -r d e; bash d/x.sh",
  "echo ok > d/log.txt; cp -r src e; bash e/x.sh",
  "mv build dist && bash dist/start.sh",
];

describe("a folder the line wrote in, copied: every path under the copy is unknown", () => {
  for (const [family, lines] of Object.entries(copies)) {
    it.each(lines)(`${family}: %s`, (line) => {
      expect(seesDanger(line)).toBe(true);
    });
  }
});

describe("folders copied as they are on disk, and the source itself, stay as they were", () => {
  it.each(asOnDisk)("%s", (line) => {
    expect(analyze(line, environment).problems).toEqual([]);
    expect(rmTargets(line)).toEqual([]);
  });
});
