import { describe, expect, it } from "vitest";
import { checkCommand } from "./check.js";
import { resolveOptions } from "./options.js";

// A JavaScript one-liner using child processes that takes a function from the module's listed members, or
// calls a computed member, may call any runner (issue #25): its name is not in the text.
const guard = resolveOptions({}, { projectRoot: "/home/dev/project", home: "/home/dev" }).guard;
const refused = (command: string) => checkCommand(command, guard).violation !== undefined;

describe("a child-process runner reached through the module's listed members is refused", () => {
  it.each([
    `node -e "Object.values(require('child_process'))[5]('rm -rf ~')"`,
    `node -e "const c=require('child_process'); const f=Object.entries(c).find(([k])=>k.length===8)[1]; f('rm -rf ~')"`,
    `node -e "const c=require('child_process'); const k=Object.keys(c); c[k[5]]('rm -rf ~')"`,
  ])("%s", (command) => {
    expect(refused(command)).toBe(true);
  });
});

describe("one-liners listing members, or running a named runner, stay allowed", () => {
  it.each([
    `node -e "require('child_process').execSync('git status',{stdio:'inherit'})"`,
    `node -e "console.log(Object.values(require('./package.json').scripts))"`,
    `node -e "const fns=[()=>1]; console.log(fns[0]())"`,
  ])("%s", (command) => {
    expect(refused(command)).toBe(false);
  });
});
