import { chmodSync, existsSync, readFileSync } from "node:fs";
import { createHost, type Host, type HostOptions } from "@toolgate/host";
import { afterEach, describe, expect, it } from "vitest";
import { createTempProject, type TempProject } from "../../helpers/temp-project.js";

/**
 * A command hook sees every call, however large its arguments: the input is on stdin, which has no size
 * limit, and only the `TOOLGATE_*` variables that fit in an environment are set (a process whose
 * environment is too big never starts: `spawn E2BIG`). Real child processes, real sizes.
 */

const projects: TempProject[] = [];
const hosts: Host[] = [];
afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close()));
  for (const project of projects.splice(0)) project.remove();
});

let ran = 0;
const tools = {
  bash: { kind: "shell", execute: () => (ran++, "ran") },
  // A tool whose output is big: the post_tool_call hook gets it as tool_response.
  dump: { execute: (args: Record<string, unknown>) => "x".repeat(Number(args.bytes)) },
};

// Blocks a call whose input holds "rm -rf" anywhere, reading stdin only; records what it saw.
const guard = `#!/bin/sh
input=$(mktemp)
cat > "$input"
cp "$input" "$0.stdin"
printf '%s' "\${TOOLGATE_TOOL_RESPONSE-absent}" | head -c 100 > "$0.response"
printf '%s' "$TOOLGATE_TOOL_NAME" > "$0.name"
printf '%s' "\${TOOLGATE_TOOL_INPUT-absent}" | head -c 100 > "$0.input"
if grep -q 'rm -rf' "$input"; then rm -f "$input"; echo "no deletes" >&2; exit 2; fi
rm -f "$input"
exit 0
`;

async function guarded(event: "pre_tool_call" | "post_tool_call" = "pre_tool_call", more: HostOptions = {}): Promise<{ host: Host; dir: string }> {
  const project = createTempProject({ "guards/guard.sh": guard });
  chmodSync(project.path("guards/guard.sh"), 0o755);
  projects.push(project);
  const host = await createHost({
    cwd: project.dir,
    pluginsDir: false,
    configFile: false,
    logger: false,
    tools,
    hooks: { [event]: [{ command: "./guards/guard.sh" }] },
    ...more,
  });
  hosts.push(host);
  return { host, dir: project.dir };
}

const kib = 1024;
const longString = (bytes: number, needle = "") => `${"a".repeat(bytes - needle.length)}${needle}`;

const shapes: [string, (needle: string) => Record<string, unknown>][] = [
  ["a small command", (needle) => ({ command: `echo hi ${needle}` })],
  ["one 8 KiB string (the limit)", (needle) => ({ command: longString(8 * kib - 20, needle) })],
  ["one 100 KiB string (under Linux's 128 KiB per variable)", (needle) => ({ command: longString(100 * kib, needle) })],
  ["one 500 KiB string", (needle) => ({ command: longString(500 * kib, needle) })],
  ["one 3 MiB string (over the whole environment's limit)", (needle) => ({ command: longString(3 * 1024 * kib, needle) })],
  [
    "2000 keys of 200 bytes",
    (needle) => ({ ...Object.fromEntries(Array.from({ length: 2000 }, (_, index) => [`k${index}`, longString(200)])), command: needle }),
  ],
  ["a deeply nested value", (needle) => ({ command: needle, nested: [{ a: [{ b: longString(300 * kib) }] }] })],
  ["multi-byte text (3 bytes a character in UTF-8)", (needle) => ({ command: `${"€".repeat(200 * kib)} ${needle}` })],
  ["a NUL byte in an argument", (needle) => ({ command: `echo a\0b ${needle}` })],
];

describe("a command hook sees every call, whatever the size of its arguments", () => {
  it.each(shapes)("%s: the hook runs, reads the whole input on stdin, and decides", async (_shape, argsWith) => {
    const { host, dir } = await guarded();
    ran = 0;
    const blocked = await host.callTool({ id: "c1", name: "bash", args: argsWith("rm -rf ~"), kind: "shell" });
    expect(blocked).toMatchObject({ status: "blocked", content: expect.stringContaining("no deletes") });
    const args = argsWith("ls");
    expect(await host.callTool({ id: "c2", name: "bash", args, kind: "shell" })).toMatchObject({ status: "ok" });
    expect(ran).toBe(1);
    // The hook had all of it: the JSON on stdin is the call's arguments, byte for byte.
    expect(JSON.parse(readFileSync(`${dir}/guards/guard.sh.stdin`, "utf8")).tool_input).toEqual(args);
    // The small variables are always there; the input is there when it fits.
    expect(readFileSync(`${dir}/guards/guard.sh.name`, "utf8")).toBe("bash");
    const inputVariable = readFileSync(`${dir}/guards/guard.sh.input`, "utf8");
    // JSON writes a NUL byte as \u0000, so an argument holding one still fits.
    const fits = JSON.stringify(args).length <= 8 * kib;
    expect(inputVariable).toBe(fits ? JSON.stringify(args).slice(0, 100) : "absent");
  });

  it("a post_tool_call hook gets a 1 MiB tool response on stdin", async () => {
    const { host, dir } = await guarded("post_tool_call");
    expect(await host.callTool({ id: "c1", name: "dump", args: { bytes: 1024 * kib } })).toMatchObject({ status: "ok" });
    const input = JSON.parse(readFileSync(`${dir}/guards/guard.sh.stdin`, "utf8"));
    expect(input.tool_response.content).toHaveLength(1024 * kib);
    expect(readFileSync(`${dir}/guards/guard.sh.response`, "utf8")).toBe("absent");
    expect(readFileSync(`${dir}/guards/guard.sh.name`, "utf8")).toBe("dump");
  });

  it("a tool name or call id the environment cannot carry (a NUL byte) still reaches the hook on stdin", async () => {
    const { host, dir } = await guarded();
    const result = await host.callTool({ id: "id\0x", name: "bash\0evil", args: { command: "rm -rf ~" } });
    expect(result).toMatchObject({ status: "blocked", content: expect.stringContaining("no deletes") });
    expect(JSON.parse(readFileSync(`${dir}/guards/guard.sh.stdin`, "utf8"))).toMatchObject({ tool_name: "bash\0evil", tool_call_id: "id\0x" });
    expect(existsSync(`${dir}/guards/guard.sh.name`) && readFileSync(`${dir}/guards/guard.sh.name`, "utf8")).toBe("");
  });

  it("a batch of large calls each get their own process and answer", async () => {
    const { host } = await guarded();
    const calls = Array.from({ length: 6 }, (_, index) => ({
      id: `b${index}`,
      name: "bash",
      args: { command: longString(400 * kib, index % 2 === 0 ? "rm -rf /" : "ls") },
      kind: "shell",
    }));
    const results = await host.callTools(calls, { concurrency: 3 });
    expect(results.map((result) => result.status)).toEqual(["blocked", "ok", "blocked", "ok", "blocked", "ok"]);
  });
});
