import { askMessage, blockMessage, createHost, type Verdict } from "@toolgate/host";
import { fileURLToPath } from "node:url";
import { bashThroughAiSdk } from "./ai-sdk-surface.js";
import { parseAnswer, runHook } from "./hook-harness.js";
import { connectThroughProxy } from "./proxy-harness.js";
import { post, startServe } from "./serve-harness.js";

/** What a surface did with a call: ran it (with these arguments), blocked it, or asked (the AI SDK's ask carries no reason). */
export type SurfaceDecision = { action: "allow"; args: Record<string, unknown> } | { action: "block"; reason: string } | { action: "ask"; reason?: string };

export type SurfaceName = "host" | "ai-sdk" | "hook claude-code" | "serve" | "mcp-proxy";

export interface PolicySurfaces {
  /** One call to a tool named `Bash` with `args`, through each surface. */
  readonly decide: Readonly<Record<SurfaceName, (args: Record<string, unknown>) => Promise<SurfaceDecision>>>;
  close(): Promise<void>;
}

const bashServer = fileURLToPath(new URL("../adapters/fixtures/bash-server.mjs", import.meta.url));

/**
 * The project in `dir` (its config and policy files) behind every surface that decides a call: the
 * host itself, the AI SDK adapter (its real generateText with a mock model), `toolgate hook
 * claude-code`, `toolgate serve` and `toolgate mcp-proxy` (real processes; the proxy in front of an MCP
 * server whose `Bash` tool answers with the arguments it received).
 */
export async function startPolicySurfaces(dir: string): Promise<PolicySurfaces> {
  const [host, served, proxy] = await Promise.all([
    createHost({ cwd: dir, logger: false }),
    startServe(["--cwd", dir]),
    connectThroughProxy(dir, ["--", process.execPath, bashServer]),
  ]);
  const decide: PolicySurfaces["decide"] = {
    host: async (args) => decisionOf(await host.checkToolCall({ name: "Bash", args }), args),
    "ai-sdk": (args) => bashThroughAiSdk(host, args),
    "hook claude-code": (args) => throughHook(dir, args),
    serve: async (args) => {
      const { body } = await post(`${served.url}/v1/check`, { call: { id: "c1", name: "Bash", args } });
      return decisionOf(body.verdict as Verdict, args);
    },
    "mcp-proxy": async (args) => {
      const result = await proxy.client.callTool({ name: "Bash", arguments: args });
      const text = (result.content as { text?: string }[]).map((part) => part.text ?? "").join("");
      if (result.isError !== true) return { action: "allow", args: (JSON.parse(text) as { ran: Record<string, unknown> }).ran };
      // MCP has no approval step: an ask comes back as the host's block of an ask without onAsk.
      const asked = /^Tool call blocked by (.*?): (.*) \(needs approval, and this host has no onAsk approver\)$/s.exec(text);
      if (asked) return { action: "ask", reason: `Approval needed (${asked[1]}): ${asked[2]}` };
      return { action: "block", reason: text };
    },
  };
  return { decide, close: async () => void (await Promise.all([host.close(), served.stop(), proxy.close()])) };
}

function decisionOf(verdict: Verdict, args: Record<string, unknown>): SurfaceDecision {
  if (verdict.action === "block") return { action: "block", reason: blockMessage(verdict) };
  if (verdict.action === "ask") return { action: "ask", reason: askMessage(verdict) };
  return { action: "allow", args: { ...(verdict.args ?? args) } };
}

async function throughHook(dir: string, args: Record<string, unknown>): Promise<SurfaceDecision> {
  const input = { hook_event_name: "PreToolUse", session_id: "s1", transcript_path: "", cwd: dir, tool_name: "Bash", tool_input: args, tool_use_id: "t1" };
  const run = await runHook("claude-code", input, { cwd: dir });
  if (run.code !== 0 && run.code !== 2) throw new Error(`toolgate hook claude-code exited with ${run.code}: ${run.stderr}`);
  const specific = parseAnswer(run).hookSpecificOutput as { permissionDecision?: string; permissionDecisionReason?: string } | undefined;
  const reason = specific?.permissionDecisionReason ?? "";
  // Claude Code reads exit code 2 as a deny whatever the JSON says, and only a deny may use it.
  if ((specific?.permissionDecision === "deny") !== (run.code === 2))
    throw new Error(`toolgate hook claude-code: exit ${run.code} with ${JSON.stringify(specific)}`);
  if (specific?.permissionDecision === "deny") return { action: "block", reason };
  if (specific?.permissionDecision === "ask") return { action: "ask", reason };
  return { action: "allow", args };
}
