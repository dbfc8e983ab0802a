import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createHost, type HostOptions } from "@toolgate/host";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

interface Seen {
  path: string;
  headers: IncomingMessage["headers"];
  body: any;
}

const seen: Seen[] = [];
let aborted = 0;
let server: Server;
let base: string;

/** A policy service on loopback: the path picks the answer. */
function answer(request: IncomingMessage, response: ServerResponse, body: string): void {
  seen.push({ path: request.url ?? "", headers: request.headers, body: JSON.parse(body) });
  const command = String(JSON.parse(body).tool_input?.command ?? "");
  switch (request.url) {
    case "/check":
      response.writeHead(200, { "content-type": "application/json" });
      response.end(command.includes("rm") ? JSON.stringify({ decision: "deny", reason: "no deletes from the policy service" }) : "");
      return;
    case "/broken":
      response.writeHead(500);
      response.end("database down");
      return;
    case "/prose":
      response.writeHead(200);
      response.end("all good");
      return;
    case "/hang":
      request.socket.on("close", () => aborted++);
      return;
  }
}

beforeAll(async () => {
  server = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk) => (body += chunk));
    request.on("end", () => answer(request, response, body));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

const tools = { bash: { kind: "shell", execute: () => "ran" } };
const call = (command: string) => ({ id: "c1", name: "bash", args: { command }, kind: "shell" });
const hostWith = (hooks: NonNullable<HostOptions["hooks"]>, more: HostOptions = {}) =>
  createHost({ pluginsDir: false, configFile: false, logger: false, tools, hooks, ...more });

describe("http hooks", () => {
  it("POST the hook input; a 2xx JSON decision decides and an empty 2xx is no opinion", async () => {
    const host = await hostWith({ pre_tool_call: [{ type: "http", url: `${base}/check` }] });
    const result = await host.callTool(call("rm -rf build"));
    expect(result.status).toBe("blocked");
    expect(result.content).toBe(`Tool call blocked by http hook "${base}/check": no deletes from the policy service`);
    expect(seen.at(-1)?.body).toMatchObject({ hook_event_name: "pre_tool_call", tool_name: "bash", tool_input: { command: "rm -rf build" } });
    expect((await host.callTool(call("ls"))).status).toBe("ok");
    await host.close();
  });

  it("${VAR} in headers expands only variables listed in allowedEnvVars", async () => {
    process.env.POLICY_TOKEN = "t0ken";
    process.env.OTHER_SECRET = "do-not-send";
    const host = await hostWith({
      pre_tool_call: [
        {
          type: "http",
          url: `${base}/check`,
          headers: { Authorization: "Bearer ${POLICY_TOKEN}", "X-Other": "[${OTHER_SECRET}]" },
          allowedEnvVars: ["POLICY_TOKEN"],
        },
      ],
    });
    await host.callTool(call("ls"));
    expect(seen.at(-1)?.headers.authorization).toBe("Bearer t0ken");
    expect(seen.at(-1)?.headers["x-other"]).toBe("[]");
    await host.close();
  });

  it("a non-2xx status and a body that is no decision are hook failures, failing closed", async () => {
    const host = await hostWith({ pre_tool_call: [{ type: "http", url: `${base}/broken` }] });
    const verdict = await host.checkToolCall(call("ls"));
    expect(verdict).toMatchObject({ action: "block", source: { kind: "http", name: `${base}/broken` } });
    expect(verdict.message).toContain("answered HTTP 500: database down (failing closed)");
    await host.close();
    const prose = await hostWith({ pre_tool_call: [{ type: "http", url: `${base}/prose` }] });
    expect((await prose.checkToolCall(call("ls"))).message).toContain("the output is not JSON: all good");
    await prose.close();
  });

  it("a refused connection is a hook failure; onHookError allow lets the call go on", async () => {
    const closedPort = `http://127.0.0.1:1/check`;
    const host = await hostWith({ pre_tool_call: [{ type: "http", url: closedPort }] }, { onHookError: "allow" });
    expect((await host.callTool(call("ls"))).status).toBe("ok");
    await host.close();
  });

  it("a timeout aborts the request and fails closed", async () => {
    const before = aborted;
    const host = await hostWith({ pre_tool_call: [{ type: "http", url: `${base}/hang`, timeout: 0.3 }] });
    const result = await host.callTool(call("ls"));
    expect(result.status).toBe("blocked");
    expect(result.content).toContain("timed out after 300 ms");
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(aborted).toBe(before + 1);
    await host.close();
  });
});
