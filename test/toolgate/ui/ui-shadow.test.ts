// The ui marks a shadow participant in a call's detail and in the explain panel: asked and recorded, no
// part in the verdict. The log is written by a real host with a shadow plugin; the page runs in Chromium.
import { createHost } from "@toolgate/host";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { makeTempDir, removeTempDirs, writeFiles } from "../../helpers/cli-harness.js";
import { hasChromium, launchChromium, missingChromiumReason, startUi, type RunningUi } from "./ui-harness.js";

let browser: Browser;
const running: RunningUi[] = [];

if (!hasChromium) console.warn(`\n*** test/toolgate/ui/ui-shadow.test.ts: the browser cases are ${missingChromiumReason}\n`);

beforeAll(async () => {
  if (hasChromium) browser = await launchChromium();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await Promise.all(running.map((ui) => ui.cli.stop()));
  removeTempDirs();
});

const files = {
  "plugins/watcher.mjs": `export default { name: "watcher", hooks: { pre_tool_call: () => ({ action: "block", message: "not yet" }) } };`,
  "plugins/fine.mjs": `export default { name: "fine", hooks: { pre_tool_call: () => ({ action: "allow", reason: "looks fine" }) } };`,
  "toolgate.config.json": JSON.stringify({
    pluginsDir: false,
    protectPolicy: "off",
    decisions: { log: ".toolgate/decisions.jsonl", args: "full" },
    plugins: [["./plugins/watcher.mjs", {}, { shadow: true }], "./plugins/fine.mjs"],
  }),
};

describe.skipIf(!hasChromium)("toolgate ui and shadow participants", () => {
  it("the detail says what the shadow plugin would have done; the enforced plugin's reason stays the record's", async () => {
    const dir = makeTempDir("repo", "ui-shadow-");
    writeFiles(dir, files);
    const host = await createHost({ cwd: dir, logger: false });
    await host.checkToolCall({ id: "c1", name: "Deploy", args: { target: "prod" } });
    await host.close();

    const ui = await startUi(dir);
    running.push(ui);
    const page = await browser.newPage();
    await page.goto(ui.url);
    await page.locator("#status[data-state=live]").waitFor();
    const row = page.locator("#records tr[data-verdict=allow]");
    await row.waitFor();
    expect(await row.locator("td").nth(6).textContent()).toBe("looks fine");

    await row.click();
    await page.locator("#detail:not([hidden])").waitFor();
    // Plugins run by order, then name: "fine" first.
    const participants = page.locator("#participants tr");
    expect(await participants.nth(0).getAttribute("class")).toBeNull();
    expect((await participants.nth(0).locator("td").allTextContents()).slice(0, 3)).toEqual(["plugin", "fine", "allow"]);
    expect(await participants.nth(1).getAttribute("class")).toBe("shadow");
    expect(await participants.nth(1).locator("td").allTextContents()).toEqual([
      "plugin",
      "watcher",
      "would have blocked (shadow)",
      "not yet",
      expect.any(String),
    ]);
    await expect.poll(() => page.locator("#explain-verdict").textContent()).toBe("verdict now: allow by fine: looks fine");
    expect(await page.locator("#explain li").allTextContents()).toEqual(["allow fine: looks fine", "block watcher (shadow, not enforced): not yet"]);
  });
});
