import { createHost, type Host } from "@toolgate/host";
import { afterAll, beforeAll, expect, it } from "vitest";
import { corpusLines } from "../../../plugins/block-dangerous-shell/src/corpus/corpus.js";
import { makeTempDir, removeTempDirs, writeFiles } from "../../helpers/cli-harness.js";

// The guard's benign corpus of everyday agent commands, run in a project's root where a rule allows
// every call: only the protection of toolgate's own policy, on for every user, stands in the way.

let host: Host;

beforeAll(async () => {
  const root = makeTempDir("repo", "benign-protection-");
  writeFiles(root, { "toolgate.config.json": JSON.stringify({ permissions: { allow: ["*"] } }), "plugins/.keep": "" });
  host = await createHost({ cwd: root, logger: false });
});

afterAll(async () => {
  await host.close();
  removeTempDirs();
});

// Unpacked in the folder that holds the config, an archive may replace it: refused, with the way out (`-C dir`).
const refusedOnPurpose = ["tar -xzf archive.tar.gz"];

it("every everyday command of the benign corpus passes the protection, but for the ones refused on purpose", async () => {
  const refused: string[] = [];
  for (const command of corpusLines("benign")) if ((await host.checkToolCall({ name: "bash", args: { command } })).action !== "allow") refused.push(command);
  expect(refused).toEqual(refusedOnPurpose);
});
