import { spawn } from "node:child_process";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it } from "vitest";
import { repoRoot } from "../../helpers/cli-harness.js";
import { echoServerPath } from "../../helpers/proxy-harness.js";

const mainPath = join(repoRoot, "packages/toolgate/src/cli/main.ts");
const tsxLoader = pathToFileURL(join(repoRoot, "node_modules/tsx/dist/loader.mjs")).href;
// A resolve hook that reports every module of the MCP SDK the process loads. It writes to fd 2 itself:
// console.error from the hooks' thread is relayed, and can be lost when the process exits at once (seen on Node 24).
const traceHook = `data:text/javascript,${encodeURIComponent(
  'import { writeSync } from "node:fs"; export async function resolve(s, c, next) { const r = await next(s, c); if (r.url.includes("@modelcontextprotocol/sdk")) writeSync(2, "SDK-LOADED " + s + "\\n"); return r; }',
)}`;
const registerTrace = `data:text/javascript,${encodeURIComponent(`import { register } from "node:module"; register(${JSON.stringify(traceHook)});`)}`;

/** How many SDK modules `toolgate <args>` loads, with stdin closed from the start. */
function sdkModulesLoadedBy(args: string[]): Promise<number> {
  const child = spawn(process.execPath, ["--import", tsxLoader, "--import", registerTrace, mainPath, ...args], {
    cwd: repoRoot,
    stdio: ["ignore", "ignore", "pipe"],
  });
  let stderr = "";
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", () => resolve(stderr.split("\n").filter((line) => line.startsWith("SDK-LOADED")).length));
  });
}

describe("the MCP SDK is loaded by mcp-proxy only", () => {
  it("toolgate list does not load it; toolgate mcp-proxy does", async () => {
    const [list, proxy] = await Promise.all([sdkModulesLoadedBy(["list"]), sdkModulesLoadedBy(["mcp-proxy", "--", process.execPath, echoServerPath])]);
    expect(list).toBe(0);
    expect(proxy).toBeGreaterThan(0);
  });
});
