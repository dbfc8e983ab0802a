import { describe, expect, it } from "vitest";
import { problemsOf as problems } from "./test-helpers.js";

// `{ …; } > x.sh` writes whatever the block prints: the reader does not follow it command by command, so a
// later run of that file runs unknown text (a problem), where running a file the line did not write is not.

describe("a file a block wrote, then run", () => {
  it.each([
    "{ echo 'rm -rf ~'; } > x.sh; bash x.sh",
    "( echo 'rm -rf ~' ) > x.sh; bash x.sh",
    "{ echo 'rm -rf ~'; } >> x.sh; source x.sh",
    "{ printf 'rm -rf ~'; } > /tmp/x.sh; sh /tmp/x.sh",
  ])("%s is a problem", (line) => {
    expect(problems(line).some((problem) => problem.includes("x.sh"))).toBe(true);
  });

  it.each(["{ echo a; echo b; } > notes.txt; cat notes.txt", "{ make; } > build.log 2>&1; bash scripts/check.sh", "{ echo hi; } > /dev/null; bash x.sh"])(
    "%s is not",
    (line) => {
      expect(problems(line)).toEqual([]);
    },
  );
});
