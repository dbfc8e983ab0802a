import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTempProject, type TempProject } from "../../helpers/temp-project.js";
import { connectThroughProxy, echoServerPath, type Connection } from "../../helpers/proxy-harness.js";

/** Asks for approval of any call whose text says "approve": the proxy has no one to ask. */
const askingPolicy = `
export default {
  name: "asks",
  hooks: { pre_tool_call(call) { if (String(call.args.text ?? "").includes("approve")) return { action: "ask", message: "a human should approve this" }; } },
};
`;

let project: TempProject;
let proxied: Connection;

beforeAll(async () => {
  project = createTempProject({ "plugins/asks.mjs": askingPolicy });
  proxied = await connectThroughProxy(project.dir, ["--", process.execPath, echoServerPath]);
});

afterAll(async () => {
  await proxied?.close();
  project?.remove();
});

describe("an ask through toolgate mcp-proxy, which has no approver", () => {
  const denial = { content: [{ type: "text", text: expect.stringContaining("a human should approve this (needs approval") }], isError: true };

  it("a tool known at start-up: denied with the ask's message, never forwarded", async () => {
    const answer = await proxied.client.callTool({ name: "echo", arguments: { text: "please approve" } });
    expect(answer).toEqual(denial);
    expect(JSON.stringify(answer)).not.toContain("echoed");
  });

  it("a tool the server added after start-up: denied the same way, never forwarded", async () => {
    await proxied.client.callTool({ name: "announce", arguments: {} });
    expect((await proxied.client.listTools()).tools.map((tool) => tool.name)).toContain("late_echo");
    expect(await proxied.client.callTool({ name: "late_echo", arguments: { text: "hi" } })).toEqual({ content: [{ type: "text", text: "late hi" }] });
    const late = await proxied.client.callTool({ name: "late_echo", arguments: { text: "please approve" } });
    expect(late).toEqual(denial);
    expect(late).toEqual(await proxied.client.callTool({ name: "echo", arguments: { text: "please approve" } }));
  });
});
