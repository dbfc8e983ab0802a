import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Browser, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTempDir, removeTempDirs, writeFiles } from "../../helpers/cli-harness.js";
import { appendRecords, blocked, logOf, record, startCli } from "../decisions/records.js";
import { hasChromium, launchChromium, startUi, type RunningUi } from "./ui-harness.js";

let browser: Browser;
const running: RunningUi[] = [];
// Screenshots of the list and the detail, to look at (the folder is git-ignored).
const shots = join(import.meta.dirname, "../../.tmp/ui-screenshots");

beforeAll(async () => {
  if (hasChromium) browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await Promise.all(running.map((ui) => ui.cli.stop()));
  removeTempDirs();
});

const longReason =
  "refusing to delete the home folder: rm -rf ~ would erase the user's files and settings, so delete specific paths inside the project instead";

/** A project with many records, so that the list scrolls. */
function busyProject(): string {
  const dir = makeTempDir("repo", "ui-hand-");
  writeFiles(dir, { "toolgate.config.json": "{}" });
  const now = Date.now();
  const records = Array.from({ length: 80 }, (_, index) =>
    index % 4 === 0
      ? blocked("block-dangerous-shell", longReason, {
          callId: `c${index}`,
          time: new Date(now - (80 - index) * 1000).toISOString(),
          summary: `rm -rf ~/${index}`,
        })
      : record({
          callId: `c${index}`,
          time: new Date(now - (80 - index) * 1000).toISOString(),
          summary: `npm test -- ${index}`,
          tool: index % 3 === 0 ? "Read" : "Bash",
        }),
  );
  appendRecords(logOf(dir), ...records);
  return dir;
}

async function openUi(dir: string, query = ""): Promise<Page> {
  const ui = await startUi(dir);
  running.push(ui);
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  await page.goto(`${ui.url}${query}`);
  await page.locator("#status[data-state=live]").waitFor();
  return page;
}

describe.skipIf(!hasChromium)("toolgate ui fits the hand", () => {
  it("opening a call's detail does not move the list: the clicked row stays where it was", async () => {
    const page = await openUi(busyProject());
    await expect.poll(() => page.locator("#records tr").count()).toBe(80);
    await page.locator("#records-scroll").evaluate((list) => (list.scrollTop = 400));
    // The row in the middle of the list as it shows now: a click needs no scrolling to reach it.
    const middle = await page.locator("#records-scroll").evaluate((list) => {
      const box = list.getBoundingClientRect();
      const hit = list.ownerDocument.elementFromPoint(box.left + box.width / 3, box.top + box.height / 2)?.closest("tr");
      return hit?.dataset.id;
    });
    expect(middle).toBeDefined();
    const row = page.locator(`#records tr[data-id="${middle}"]`);
    const before = await row.boundingBox();
    const scrollBefore = await page.locator("#records-scroll").evaluate((list) => list.scrollTop);
    await page.screenshot({ path: join(shots, "list.png") });
    await row.click();
    await page.locator("#detail:not([hidden])").waitFor();
    const after = await row.boundingBox();
    expect(after!.y).toBeCloseTo(before!.y, 0);
    expect(after!.width).toBeCloseTo(before!.width, 0);
    expect(await page.locator("#records-scroll").evaluate((list) => list.scrollTop)).toBe(scrollBefore);
    expect(await row.getAttribute("aria-selected")).toBe("true");
    await page.screenshot({ path: join(shots, "detail.png") });
  });

  it("the why column wraps by words, not one word per line", async () => {
    const page = await openUi(busyProject());
    const why = page.locator("#records tr[data-verdict=block] td.message").first();
    await why.waitFor();
    const { width, lines, words } = await why.evaluate((cell) => {
      const lineHeight = Number.parseFloat(cell.ownerDocument.defaultView!.getComputedStyle(cell).lineHeight) || 20;
      return {
        width: cell.getBoundingClientRect().width,
        lines: Math.round((cell.getBoundingClientRect().height - 6) / lineHeight),
        words: cell.textContent!.split(" ").length,
      };
    });
    expect(width).toBeGreaterThan(200);
    expect(lines).toBeLessThan(words / 3);
  });

  it("rows are reached and opened from the keyboard", async () => {
    const page = await openUi(busyProject());
    await page.locator("#records tr").first().waitFor();
    await page.locator("#filters select").focus();
    // Evaluated in the page: the test's own types have no DOM.
    const focusedRow = () =>
      page.evaluate<string | undefined>("document.activeElement?.matches('#records tr') ? document.activeElement.dataset.id : undefined");
    for (let presses = 0; presses < 20 && (await focusedRow()) === undefined; presses++) await page.keyboard.press("Tab");
    const first = await focusedRow();
    expect(first).toBeDefined();
    await page.keyboard.press("ArrowDown");
    const second = await focusedRow();
    expect(second).not.toBe(first);
    await page.keyboard.press("Enter");
    await page.locator("#detail:not([hidden])").waitFor();
    expect(await page.locator(`#records tr[data-id="${second}"]`).getAttribute("aria-selected")).toBe("true");
    await page.keyboard.press("ArrowUp");
    await page.keyboard.press(" ");
    await expect.poll(() => page.locator(`#records tr[data-id="${first}"]`).getAttribute("aria-selected")).toBe("true");
  });

  it("the filters live in the address: a reload or a shared link shows the same view", async () => {
    const dir = busyProject();
    const page = await openUi(dir);
    await page.locator("#filters select[name=verdict]").selectOption("block");
    await page.locator("#filters input[name=tool]").fill("Bash");
    await expect.poll(() => new URL(page.url()).searchParams.get("verdict")).toBe("block");
    await expect.poll(() => new URL(page.url()).searchParams.get("tool")).toBe("Bash");
    await page.reload();
    await page.locator("#status[data-state=live]").waitFor();
    expect(await page.locator("#filters select[name=verdict]").inputValue()).toBe("block");
    await expect.poll(() => page.locator("#records tr").count()).toBe(20);
    expect(await page.locator("#records tr[data-verdict=allow]").count()).toBe(0);
    const shared = await openUi(dir, "?verdict=allow&tool=Read");
    expect(await shared.locator("#filters input[name=tool]").inputValue()).toBe("Read");
    await expect.poll(() => shared.locator("#records tr").count()).toBeGreaterThan(0);
    expect(await shared.locator("#records td.tool").allTextContents()).toEqual(expect.arrayContaining(["Read"]));
    expect(new Set(await shared.locator("#records td.tool").allTextContents())).toEqual(new Set(["Read"]));
  });
});

describe("toolgate ui --open", () => {
  it("opens the page with $BROWSER, and the URL it opens is the one it listens on", async () => {
    const dir = makeTempDir("repo", "ui-open-");
    const opened = join(dir, "opened.txt");
    writeFiles(dir, { "browser.sh": `#!/bin/sh\necho "$1" > ${JSON.stringify(opened)}\n` });
    const { chmodSync } = await import("node:fs");
    chmodSync(join(dir, "browser.sh"), 0o755);
    const cli = startCli(["ui", "--cwd", dir, "--port", "0", "--open"], { BROWSER: join(dir, "browser.sh") });
    try {
      const [, url] = await cli.waitFor(/^listening on (http:\/\/127\.0\.0\.1:\d+\/)\n/);
      await expect.poll(() => (existsSync(opened) ? readFileSync(opened, "utf8").trim() : "")).toBe(url);
    } finally {
      await cli.stop();
    }
  });
});
