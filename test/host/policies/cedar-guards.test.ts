// Before Cedar is asked, toolgate leaves out of the request the policies a call rules out: the leading
// tests of a policy's first `when` (`has`, `like`, `== "…"`, `["…"].contains(…)`) that it answers
// itself, stopping at the first false. The verdict, and the message of a policy that errors, equal
// Cedar's own isAuthorized over the whole file, on values chosen to trip each test: missing keys,
// values that are not strings, parents that are not records, wildcards, escaped stars, characters
// beyond the BMP, and a later test that would fail were it reached.
import { afterAll, expect, it } from "vitest";
import { removeTempDirs } from "../../helpers/cli-harness.js";
import { type CedarCall, expectSameAsCedar } from "./cedar-differential.js";

afterAll(removeTempDirs);

const policies = [
  'forbid(principal, action == Action::"t", resource) when { context.args has cmd && context.args.cmd like "*rm -rf*" };',
  'forbid(principal, action == Action::"t", resource) when { context.args.cmd like "sudo *" };',
  'forbid(principal, action == Action::"t", resource) when { context.args has cmd && context.args.cmd like "a*b*c" && context.args.n > 3 };',
  'forbid(principal, action == Action::"t", resource) when { context.args has cmd && context.args.cmd like "lit\\*star" };',
  'forbid(principal, action == Action::"t", resource) when { context.args has cmd && context.args.cmd like "😀*?" };',
  'permit(principal, action == Action::"t", resource) when { context.args has cmd && ["ls", "pwd", "😀"].contains(context.args.cmd) };',
  'permit(principal, action == Action::"t", resource) when { context.args has env && context.args.env == "dev" && context.args.region == "eu" };',
  'forbid(principal, action == Action::"t", resource) when { context.args has a.b && context.args.a.b == "x" };',
  'forbid(principal, action == Action::"t", resource) when { context.args.mode == "danger" };',
  'forbid(principal, action == Action::"t", resource) when { "prod" == context.args.stage } unless { context.args has override };',
  'forbid(principal, action == Action::"t", resource) unless { context.args has cmd && context.args.cmd like "*" };',
  'forbid(principal, action == Action::"t", resource) when { context.args has cmd && context.args.cmd like "zzz*" && context.args.missing == 1 };',
];
const text = `${policies.join("\n")}\n`;

const calls: CedarCall[] = [
  ["t", { cmd: "rm -rf /", mode: "x", stage: "y" }],
  ["t", { cmd: "sudo ls", mode: "x", stage: "y" }],
  ["t", { cmd: "axbxc", n: 5, mode: "x", stage: "y" }],
  ["t", { cmd: "axbxc", n: "five", mode: "x", stage: "y" }],
  ["t", { cmd: "abd", n: "five", mode: "x", stage: "y" }],
  ["t", { cmd: "lit*star", mode: "x", stage: "y" }],
  ["t", { cmd: "litXstar", mode: "x", stage: "y" }],
  ["t", { cmd: "😀x?", mode: "x", stage: "y" }],
  ["t", { cmd: "😀x", mode: "x", stage: "y" }],
  ["t", { cmd: "ls", mode: "x", stage: "y" }],
  ["t", { cmd: "😀", mode: "x", stage: "y" }],
  ["t", { cmd: 7, mode: "x", stage: "y" }],
  ["t", { cmd: ["ls"], mode: "x", stage: "y" }],
  ["t", { cmd: "", mode: "x", stage: "y" }],
  ["t", { mode: "x", stage: "y" }],
  ["t", { cmd: "echo", env: "dev", mode: "x", stage: "y" }],
  ["t", { cmd: "echo", env: "dev", region: "eu", mode: "x", stage: "y" }],
  ["t", { cmd: "echo", env: "prod", mode: "x", stage: "y" }],
  ["t", { cmd: "echo", a: { b: "x" }, mode: "x", stage: "y" }],
  ["t", { cmd: "echo", a: { c: 1 }, mode: "x", stage: "y" }],
  ["t", { cmd: "echo", a: "not a record", mode: "x", stage: "y" }],
  ["t", { cmd: "echo", a: null, mode: "x", stage: "y" }],
  ["t", { cmd: "echo", mode: "danger", stage: "y" }],
  ["t", { cmd: "echo", mode: 1, stage: "y" }],
  ["t", { cmd: "echo", stage: "y" }],
  ["t", { cmd: "echo", mode: "x", stage: "prod" }],
  ["t", { cmd: "echo", mode: "x", stage: "prod", override: true }],
  ["t", { cmd: "echo", mode: "x" }],
  ["t", { cmd: null, mode: "x", stage: "y" }],
  ["t", { cmd: "zzz", mode: "x", stage: "y" }],
  ["other", { cmd: "rm -rf /" }],
];

it("equals isAuthorized over the whole file, errors' messages included", async () => {
  const seen = await expectSameAsCedar(text, calls, [{ id: "s1" }]);
  expect([...seen].sort()).toEqual(["error", "forbid", "none", "permit"]);
});
