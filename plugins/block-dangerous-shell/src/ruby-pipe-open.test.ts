import { describe, expect, it } from "vitest";
import { checkCommand } from "./check.js";
import { resolveOptions } from "./options.js";

// Ruby's `open("|cmd")` and `IO.read("|cmd")` run the command as Perl's pipe opens do (issue #25): the
// literal is a command, not a file name, so a one-liner opening one hides what it runs.
const guard = resolveOptions({}, { projectRoot: "/home/dev/project", home: "/home/dev" }).guard;
const refused = (command: string) => checkCommand(command, guard).violation !== undefined;

describe("a Ruby one-liner opening a pipe to a command is refused", () => {
  it.each([
    `ruby -e "open('|rm -rf ~')"`,
    `ruby -e "open '|rm -rf ~'"`,
    `ruby -e "Kernel.open('|rm -rf ~')"`,
    `ruby -e "IO.read('|rm -rf ~')"`,
    `ruby -e "IO.readlines('| rm -rf ~')"`,
    `ruby -e "IO.write('|sh', 'rm -rf ~')"`,
  ])("%s", (command) => {
    expect(refused(command)).toBe(true);
  });
});

describe("Ruby one-liners opening files stay allowed", () => {
  it.each([
    `ruby -e "File.open('x.txt', 'w') { |f| f.puts 1 }"`,
    `ruby -e "puts IO.read('Gemfile')"`,
    `ruby -e "open('Gemfile').each { |l| puts l }"`,
    `ruby -e "puts IO.readlines('x.txt').size"`,
  ])("%s", (command) => {
    expect(refused(command)).toBe(false);
  });
});
