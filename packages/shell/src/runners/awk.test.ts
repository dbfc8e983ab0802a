import { describe, expect, it } from "vitest";
import { readingOf, runs } from "./test-helpers.js";

describe("awk as a runner", () => {
  it.each([
    "awk '{ print $1 }' f",
    "awk -F: '{ print $1 }' /etc/passwd",
    "awk '/a|b/ { print $1 }' f",
    "awk '$1 ~ /x|y/' f",
    "awk -F, '{ print $1 \"|\" $2 }' f",
    "awk '{ if (a || b) print }' f",
    "awk -v n=3 'NR <= n' f",
    "awk '{ x = a / b; print x }' f",
    "gawk --sandbox '{ print | \"sh\" }' f",
    "awk 'BEGIN { FS = \"|\" } { print $2 }' f",
  ])("%s runs nothing more", (command) => {
    expect(readingOf(command)).toBe("plain");
  });

  it.each([
    ['awk \'BEGIN { print "rm -rf ~" | "sh" }\'', "rm -rf ~"],
    ["awk 'BEGIN { \"rm -rf ~\" | getline }'", "rm -rf ~"],
    ["awk '{ print | \"rm -rf ~\" }' f", "rm -rf ~"],
    ['gawk \'BEGIN { print "x" |& "rm -rf ~" }\'', "rm -rf ~"],
    ["awk '{ print x | \"sort\" }' f", "sort"],
    ["gawk -e 'BEGIN { \"rm -rf ~\" | getline }'", "rm -rf ~"],
  ])("%s runs %s", (command, nested) => {
    expect(runs(command, nested)).toBe(true);
  });

  it.each([
    "awk '{ print | cmd }' f",
    "awk '{ cmd | getline x }' f",
    "awk '{ print $0 | \"sh\" }' f",
    "awk '{ print $0 | \"bash -s\" }' f",
    "awk -f prog.awk f",
    "gawk --file=prog.awk f",
    "gawk -l ./evil.so 'BEGIN{}'",
    "gawk '@load \"x\"; BEGIN {}'",
    "awk --frob '{}' f",
  ])("%s is unknown", (command) => {
    expect(readingOf(command)).toBe("unknown");
  });
});
