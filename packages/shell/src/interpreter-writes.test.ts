import { describe, expect, it } from "vitest";
import { analyze } from "./invocations.js";
import { rmTargets, testEnvironment as environment } from "./test-helpers.js";

/**
 * Interpreter code the line gives (`-c`, `-e`, standard input) writes the files it spells out with text not
 * followed here: a script run after it at one of them is unknown (issue #25). Other writes of the same
 * family, already followed, are kept beside them: `tee -a`, `exec >`, `cat >>`, `truncate`, `perl -pi`.
 */
function seesDanger(source: string): boolean {
  return rmTargets(source).includes("~") || analyze(source, environment).problems.length > 0;
}

const written = [
  `python3 -c 'open("x.sh","w").write("rm -rf ~")'; bash x.sh`,
  `python3 -c 'f = open("x.sh", "a"); f.write("rm -rf ~")'; bash x.sh`,
  `python3 -c 'from pathlib import Path; Path("x.sh").write_text("rm -rf ~")'; bash x.sh`,
  `python3 -c 'import shutil; shutil.copy("/tmp/a", "x.sh")'; ./x.sh`,
  `python3 <<< 'open("x.sh","w").write("rm -rf ~")'; bash x.sh`,
  `echo 'open("x.sh","w").write("rm -rf ~")' | python3; bash x.sh`,
  `echo ls > x.sh; python3 -c 'open("x.sh","w").write("rm -rf ~")'; bash x.sh`,
  `node -e 'require("fs").writeFileSync("x.sh","rm -rf ~")'; bash x.sh`,
  `node -e 'require("fs").appendFileSync("./x.sh","rm -rf ~")'; sh x.sh`,
  `perl -e 'open F,">x.sh"; print F "rm -rf ~"'; bash x.sh`,
  `perl -e 'open(my $f, ">>", "x.sh"); print $f "rm -rf ~"'; source x.sh`,
  `ruby -e 'File.write("x.sh", "rm -rf ~")'; bash x.sh`,
  `python3 -c 'import sys; open(sys.argv[1],"w").write("rm -rf ~")' x.sh; bash x.sh`,
  `printf 'open("x.sh","w").write("rm -rf ~")' > gen.py; python3 gen.py; bash x.sh`,
  `cat > gen.js <<'EOF'\nrequire("fs").writeFileSync("x.sh", "rm -rf ~")\nEOF\nnode gen.js; bash x.sh`,
  "printf 'rm -rf ~' | tee -a x.sh; source x.sh",
  "exec > x.sh; echo 'rm -rf ~'; exec > /dev/tty; bash x.sh",
  "cat >> x.sh <<< 'rm -rf ~'; bash x.sh",
  "echo ls > x.sh; truncate -s 0 x.sh; echo 'rm -rf ~' >> x.sh; bash x.sh",
  "echo ls > x.sh; perl -pi -e 's/ls/rm -rf ~/' x.sh; bash x.sh",
];

const untouched = [
  "python3 -c 'print(1)'; bash scripts/check.sh",
  `python3 -c "import json; print(json.load(open('package.json'))['version'])"; bash scripts/check.sh`,
  `python3 -c 'open("out.txt","w").write("hi")'; bash scripts/check.sh`,
  "node -e 'console.log(1)' && bash scripts/check.sh",
  "perl -ne 'print if /x/' notes.txt; bash scripts/check.sh",
  "perl -e 'print 1' > out.txt; bash scripts/check.sh",
  `printf 'print(1)' > gen.py; python3 gen.py; bash scripts/check.sh`,
];

describe("a file interpreter code from the line writes holds unknown text", () => {
  it.each(written)("%s", (line) => {
    expect(seesDanger(line)).toBe(true);
  });
});

describe("interpreter code that writes no file the line runs changes nothing it reads", () => {
  it.each(untouched)("%s", (line) => {
    expect(analyze(line, environment).problems).toEqual([]);
  });
});
