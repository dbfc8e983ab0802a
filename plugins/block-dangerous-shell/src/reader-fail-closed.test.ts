import { createTestHost, type TestHost } from "@toolgate/host/testing";
import { afterEach, describe, expect, it } from "vitest";
import blockDangerousShell from "./index.js";

// End to end through the plugin (issue #25): where the shell reader cannot be sure what bash runs, the
// answer is unknown and the call is refused; the everyday lines stay allowed.
const project = "/srv/app";
let testHost: TestHost | undefined;

afterEach(async () => {
  await testHost?.close();
  testHost = undefined;
});

async function run(command: string) {
  testHost ??= await createTestHost(blockDangerousShell, { options: {}, tools: ["bash"], host: { cwd: project } });
  return testHost.call("bash", { command });
}

describe("the reader fails closed, end to end", () => {
  it.each([
    "x='$(rm -rf ~)'; echo ${x@P}",
    "x='a[$(rm -rf ~)]'; echo $((x))",
    "let 'a[$(rm -rf ~)]'",
    "echo ${x:-$(rm -rf ~)}",
    "$(printf '\\x72\\x6d') -rf ~",
    "printf '%s -rf %s' rm ~ | bash",
    "echo -e 'r\\x6d -rf ~' | bash",
    "rm -rf $UNKNOWN/x", // `rm -r` without -f is the runners helper's change to the delete rule
    'rm -rf "$(cat list)"',
    "rm -rf ~root",
    "cat <<EOF\r\nrm -rf ~\nEOF\r\n",
    "echo $(echo hi # )\nrm -rf ~\n)",
    "echo `echo \\`rm -rf ~\\``",
    "$EDITOR -c '!rm -rf ~'",
    "shopt -s expand_aliases\nalias x='rm -rf ~'\nx",
  ])("blocks %j", async (command) => {
    const outcome = await run(command);
    expect(outcome.executed).toBe(false);
  });

  it.each([
    "trap 'rm -rf \"$TMP\"' EXIT",
    "ls -la ~+",
    "cd build && rm -rf *",
    'rm -rf "$(pwd)/build"',
    'echo "${HOME}"',
    "printf '%s\\n' a b",
    "x=$((1+2)); echo $x",
    "for i in $(seq 3); do echo $i; done",
  ])("allows %j", async (command) => {
    const outcome = await run(command);
    expect(outcome.executed).toBe(true);
  });
});
