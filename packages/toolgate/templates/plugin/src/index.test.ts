import { createTestHost, type TestHost } from "@toolgate/host/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import plugin from "./index.js";

describe("{{pluginName}}", () => {
  let testHost: TestHost;

  // A real toolgate host with a fake "terminal" tool that records whether it ran.
  beforeEach(async () => {
    testHost = await createTestHost(plugin, { tools: ["terminal"] });
  });
  afterEach(() => testHost.close());

  it("blocks rm -rf /, and the terminal never runs", async () => {
    const outcome = await testHost.call("terminal", { command: "rm -rf /" });

    expect(outcome.executed).toBe(false);
    expect(outcome.result.status).toBe("blocked");
    expect(outcome.message.content).toContain("refusing to delete everything from the filesystem root");
    expect(outcome.message.content).toContain('"{{pluginName}}"');
  });

  it("lets other commands run", async () => {
    const outcome = await testHost.call("terminal", { command: "rm -rf ./build" });

    expect(outcome.executed).toBe(true);
    expect(outcome.result.status).toBe("ok");
  });
});
