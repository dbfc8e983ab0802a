import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTempDir, removeTempDirs, writeFiles } from "../../helpers/cli-harness.js";
import { appendRecords, blocked, logOf, record } from "../decisions/records.js";
import { parseAnswer, policyPlugin, runHook } from "../../helpers/hook-harness.js";
import { hasChromium, launchChromium, missingChromiumReason, rawRequest, startUi, type RunningUi } from "./ui-harness.js";

let browser: Browser;
const running: RunningUi[] = [];

if (!hasChromium) console.warn(`\n*** test/toolgate/ui/ui.test.ts: the browser cases are ${missingChromiumReason}\n`);

// A first launch on a fresh machine builds chromium's font cache, and the suite keeps both cores busy: 10 s was not enough in CI.
beforeAll(async () => {
  if (hasChromium) browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await Promise.all(running.map((ui) => ui.cli.stop()));
  removeTempDirs();
});

/** A project whose `policy` plugin blocks `rm -rf`, recording arguments in full so the page can explain them. */
function project(): string {
  const dir = makeTempDir("repo", "ui-");
  writeFiles(dir, { "plugins/policy.mjs": policyPlugin.replace("__CWD__", dir), "toolgate.config.json": JSON.stringify({ decisions: { args: "full" } }) });
  return dir;
}

async function openUi(dir: string): Promise<{ ui: RunningUi; page: Page }> {
  const ui = await startUi(dir);
  running.push(ui);
  const page = await browser.newPage();
  await page.goto(ui.url);
  await page.locator("#status[data-state=live]").waitFor();
  return { ui, page };
}

const rows = (page: Page) => page.locator("#records tr");

describe.skipIf(!hasChromium)("toolgate ui in Chromium", () => {
  it("shows records appended by another process without a reload, with their detail, explain, chart and top denying", async () => {
    const dir = project();
    appendRecords(logOf(dir), record({ callId: "earlier", tool: "Read", kind: "function", args: { path: "README.md" } }));
    const { page } = await openUi(dir);
    await expect.poll(() => rows(page).count()).toBe(1);

    appendRecords(
      logOf(dir),
      blocked("policy", "rm -rf is not allowed here", { callId: "toolu_9", args: { command: "rm -rf /" }, time: new Date().toISOString() }),
    );
    const row = page.locator("#records tr[data-verdict=block]");
    await row.waitFor();
    expect(await rows(page).count()).toBe(2);
    expect(await row.locator("td").allTextContents()).toEqual([
      expect.any(String),
      "hook:claude-code",
      "block",
      "Bash",
      "",
      "plugin policy",
      "rm -rf is not allowed here",
    ]);
    expect(await page.locator("#top-denying li").allTextContents()).toEqual(["plugin policy: 1 blocked"]);
    expect(await page.locator("#chart rect.block").count()).toBe(1);

    await row.click();
    await page.locator("#detail:not([hidden])").waitFor();
    expect(await page.locator("#participants tr td").allTextContents()).toEqual(["plugin", "policy", "block", "rm -rf is not allowed here", "0.2"]);
    expect(await page.locator("#detail-args").textContent()).toBe(JSON.stringify({ command: "rm -rf /" }, null, 2));
    await expect.poll(() => page.locator("#explain-verdict").textContent()).toBe("verdict now: block by policy: rm -rf is not allowed here");
    expect(await page.locator("#explain li").first().textContent()).toBe("block policy: rm -rf is not allowed here");
  });

  it("says a call recorded with its digest only cannot be explained, and filters", async () => {
    const dir = project();
    appendRecords(logOf(dir), blocked("policy", "no", { callId: "digest-only", argsDigest: "sha256:abc" }), record({ callId: "fine", tool: "Read" }));
    const { page } = await openUi(dir);
    await expect.poll(() => rows(page).count()).toBe(2);
    await page.locator("#records tr[data-verdict=block]").click();
    await expect.poll(() => page.locator("#explain").textContent()).toContain("recorded as a digest only, so this call cannot be explained here");

    await page.selectOption("select[name=verdict]", "allow");
    await expect.poll(() => page.locator("#records tr").evaluateAll((found) => found.map((row) => row.getAttribute("data-verdict")))).toEqual(["allow"]);
    await page.fill("input[name=since]", "yesterday-ish");
    await expect
      .poll(() => page.locator("#filter-error").textContent())
      .toBe("since yesterday-ish: expected a time (2026-11-27T10:00:00Z) or a duration (30s, 10m, 2h, 7d)");
  });

  it("shows what the file says as text, never as markup, with control characters written out", async () => {
    const dir = project();
    const hostile = "<img src=x onerror=\"document.title='owned'\">";
    appendRecords(logOf(dir), blocked(hostile, `line one\nforged \u202eexe.txt \u001b[31m${hostile}`, { tool: hostile }));
    const { page } = await openUi(dir);
    await expect.poll(() => rows(page).count()).toBe(1);
    await page.locator("#records tr").click();
    expect(await page.locator("#records td.tool").textContent()).toBe(hostile);
    expect(await page.locator("#records td.message").textContent()).toBe(`line one\\nforged \\u202eexe.txt \\x1b[31m${hostile}`);
    expect(await page.locator("img").count()).toBe(0);
    expect(await page.title()).toBe("toolgate decisions");
  });

  it("shows the call `toolgate hook claude-code` blocks in another process as it happens, and explains it", async () => {
    const dir = project();
    const { page } = await openUi(dir);
    const hook = await runHook("claude-code", {
      session_id: "session-ui",
      transcript_path: "/tmp/transcript.jsonl",
      cwd: dir,
      permission_mode: "default",
      hook_event_name: "PreToolUse",
      tool_name: "Bash",
      tool_input: { command: "rm -rf /" },
      tool_use_id: "toolu_ui",
    });
    expect(hook.code).toBe(2);
    expect(parseAnswer(hook)).toMatchObject({ hookSpecificOutput: { permissionDecision: "deny" } });
    const row = page.locator("#records tr[data-verdict=block]");
    await row.waitFor({ timeout: 30_000 });
    expect(await row.locator("td").allTextContents()).toEqual([
      expect.any(String),
      "hook:claude-code",
      "block",
      "Bash",
      "rm -rf /",
      "plugin policy",
      "rm -rf is not allowed here",
    ]);
    await row.click();
    await expect.poll(() => page.locator("#explain-verdict").textContent()).toBe("verdict now: block by policy: rm -rf is not allowed here");
    expect(await page.locator("#detail-fields").textContent()).toContain("session-ui");
  });
});

describe.concurrent("toolgate ui refuses what another web page could send, as serve does", () => {
  let ui: RunningUi;
  beforeAll(async () => {
    ui = await startUi(project());
    running.push(ui);
  });

  it("answers its own page with a strict content security policy", async () => {
    const page = await rawRequest(ui.url);
    expect(page.status).toBe(200);
    expect(page.headers["content-type"]).toBe("text/html; charset=utf-8");
    expect(page.headers["content-security-policy"]).toContain("script-src 'self'");
    expect(page.headers["x-content-type-options"]).toBe("nosniff");
  });

  it.each([
    [{ Host: "evil.example" }, 421],
    [{ Origin: "http://evil.example" }, 403],
    [{ "Sec-Fetch-Site": "cross-site" }, 403],
  ])("refuses a request with %j (%i)", async (headers, status) => {
    const { port } = new URL(ui.url);
    const refused = await rawRequest(`${ui.url}api/stream`, { headers: { Host: `127.0.0.1:${port}`, ...headers } });
    expect(refused.status).toBe(status);
    expect(refused.body).not.toContain("event:");
  });

  it("refuses an explain request not sent as JSON (415), which a form on another site could send", async () => {
    const refused = await rawRequest(`${ui.url}api/explain`, {
      method: "POST",
      headers: { "Content-Type": "text/plain" },
      body: JSON.stringify({ tool: "Bash", args: {} }),
    });
    expect(refused.status).toBe(415);
  });

  it("explains a recorded call in the session it was recorded in", async () => {
    const explain = async (session?: string) => {
      const body = JSON.stringify({ tool: "Bash", kind: "shell", args: { command: "shellonly" }, ...(session === undefined ? {} : { session }) });
      const answer = await rawRequest(`${ui.url}api/explain`, { method: "POST", headers: { "Content-Type": "application/json" }, body });
      return (JSON.parse(answer.body) as { explanation: { verdict: { message: string } } }).explanation.verdict.message;
    };
    expect(await explain("agent-9")).toBe("kind shell session agent-9");
    expect(await explain()).not.toBe("kind shell session agent-9");
  });

  it("serves only its own files", async () => {
    for (const path of ["../package.json", "%2e%2e/package.json", "ui/app.js", "index.html"]) expect((await rawRequest(`${ui.url}${path}`)).status).toBe(404);
  });
});
