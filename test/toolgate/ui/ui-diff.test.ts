import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTempDir, removeTempDirs, writeFiles } from "../../helpers/cli-harness.js";
import { appendRecords, logOf, record } from "../decisions/records.js";
import { hasChromium, launchChromium, rawRequest, startUi, type RunningUi } from "./ui-harness.js";

const gitAvailable = spawnSync("git", ["--version"]).status === 0;

function git(cwd: string, ...args: string[]): void {
  const env: NodeJS.ProcessEnv = { ...process.env, GIT_CONFIG_NOSYSTEM: "1", GIT_AUTHOR_NAME: "t", GIT_AUTHOR_EMAIL: "t@example.com" };
  Object.assign(env, { GIT_COMMITTER_NAME: "t", GIT_COMMITTER_EMAIL: "t@example.com" });
  for (const name of ["GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE"]) delete env[name];
  const result = spawnSync("git", args, { cwd, env, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`git ${args.join(" ")}: ${result.stderr}`);
}

const denying = (glob: string) => JSON.stringify({ permissions: { deny: [`Bash:command=${glob}`] } });

interface DiffAnswer {
  base: string;
  head: string;
  compared: number;
  changed: number;
  groups: { from: string; to: string; calls: { where: string; call: { args: { command: string } }; head: { source?: { name: string } } }[] }[];
  notReplayed: unknown[];
  error?: string;
}

describe.skipIf(!gitAvailable)("toolgate ui: the policy diff panel", () => {
  let dir: string;
  let ui: RunningUi;
  let browser: Browser | undefined;

  beforeAll(async () => {
    dir = makeTempDir("repo", "ui-diff-");
    // Committed: sudo is denied. On disk: curl is denied instead.
    writeFiles(dir, { "toolgate.config.json": denying("*sudo*"), ".gitignore": ".toolgate/\n" });
    git(dir, "init", "-q");
    git(dir, "add", ".");
    git(dir, "commit", "-qm", "policy v1");
    writeFiles(dir, { "toolgate.config.json": denying("*curl*") });
    const call = (callId: string, command: string) => record({ callId, args: { command } });
    appendRecords(logOf(dir), call("c1", "ls"), call("c2", "sudo ls"), call("c3", "curl example.com"), record({ callId: "c4" }));
    ui = await startUi(dir);
    if (hasChromium) browser = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await ui?.cli.stop();
    removeTempDirs();
  });

  const postDiff = async (body: unknown, headers: Record<string, string> = {}) => {
    const answer = await rawRequest(`${ui.url}api/diff`, {
      method: "POST",
      headers: { "Content-Type": "application/json", ...headers },
      body: typeof body === "string" ? body : JSON.stringify(body),
    });
    return { status: answer.status, json: JSON.parse(answer.body) as DiffAnswer };
  };

  it("decides the log's calls under the committed policy and the one on disk, and lists what changes", async () => {
    const { status, json } = await postDiff({ base: "HEAD" });

    expect(status, json.error).toBe(200);
    expect(json).toMatchObject({ head: "working tree", compared: 3, changed: 2 });
    expect(json.base).toMatch(/^HEAD \([0-9a-f]{12}\)$/);
    expect(json.notReplayed).toHaveLength(1);
    const changes = json.groups.flatMap((group) => group.calls.map((change) => `${change.call.args.command}: ${group.from}->${group.to}`));
    expect(changes).toEqual(["curl example.com: allow->block", "sudo ls: block->allow"]);
    expect(json.groups[0]!.calls[0]!.head.source?.name).toBe("Bash:command=*curl*");
  });

  it("writes nothing into the project's .toolgate folder: the log stays as it was", async () => {
    await postDiff({ base: "HEAD" });
    expect(readdirSync(join(dir, ".toolgate")).sort()).toEqual(["decisions.jsonl"]);
  });

  it.each([
    [{ base: "-c core.pager=x" }, "base must be a git ref"],
    [{ base: "HEAD", head: "../other" }, "head must be a git ref"],
    [{ base: "toolgate.config.json" }, 'base "toolgate.config.json" names a file: the ui compares git refs only'],
    [{ base: "no-such-branch" }, "no file and no git commit by that name"],
    [{}, "base must be a git ref"],
    [[], "the body must be an object"],
    ["{not json", "the body is not JSON"],
  ])("refuses %j with a 400 that says why", async (body, message) => {
    const { status, json } = await postDiff(body);
    expect(status).toBe(400);
    expect(json.error).toContain(message);
  });

  it("refuses a diff asked from another site, as every other request", async () => {
    const { status } = await postDiff({ base: "HEAD" }, { Origin: "https://evil.example" });
    expect(status).toBe(403);
  });

  it.skipIf(!hasChromium)("shows the changed calls in the page, old and new verdict side by side", async () => {
    const page = await browser!.newPage();
    await page.goto(ui.url);
    await page.locator("#diff-panel summary").click();
    await page.locator("#diff-form input[name=base]").fill("HEAD");
    await page.locator("#diff-form button").click();
    await page.locator("#diff-table:not([hidden])").waitFor();

    expect(await page.locator("#diff-status").textContent()).toMatch(
      /^2 of 3 calls change from HEAD \([0-9a-f]{12}\) to working tree \(1 records not replayable\)$/,
    );
    const rows = await page.locator("#diff-rows tr").evaluateAll((rows) => rows.map((row) => [...row.children].map((cell) => cell.textContent)));
    expect(rows).toHaveLength(2);
    expect(rows[0]!.slice(1, 5)).toEqual(["Bash", '{"command":"curl example.com"}', "allow", expect.stringMatching(/^block by rule Bash:command=\*curl\*/)]);
    expect(rows[1]![3]).toMatch(/^block by rule Bash:command=\*sudo\*/);
    await page.close();
  });
});
