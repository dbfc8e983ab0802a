import { createHost, type Host, type Plugin, type ToolCall } from "@toolgate/host";
import { afterAll, describe, expect, it } from "vitest";
import { promisesPerCall as countPromises } from "../../bench/count-promises.js";

// A counting invariant, not a timing test: synchronous hooks take a synchronous path through the gate,
// so the promises one call creates must not depend on how many plugins it passes.

const callsPerMeasure = 200;
const call: ToolCall = { id: "c1", name: "noop", args: { path: "README.md", recursive: false } };
const hosts: Host[] = [];

afterAll(async () => {
  await Promise.all(hosts.map((host) => host.close()));
});

function passing(count: number, style: "sync" | "async"): Plugin[] {
  return Array.from({ length: count }, (_, index) => ({
    name: `pass-${String(index).padStart(3, "0")}`,
    hooks: style === "sync" ? { pre_tool_call() {} } : { async pre_tool_call() {} },
  }));
}

async function hostWith(plugins: Plugin[]): Promise<Host> {
  const host = await createHost({ plugins, pluginsDir: false, configFile: false, logger: false, tools: { noop: { execute() {} } } });
  hosts.push(host);
  return host;
}

// The calls settle in microtasks only, so no timer or I/O callback of the test runner runs inside the
// window; the lowest of three measures is kept all the same, in case something else was already queued.
const promisesPerCall = (run: () => Promise<unknown>) => countPromises(run, callsPerMeasure, 3);

describe("promise allocation in the gate", () => {
  it("checkToolCall creates as many promises through 100 sync plugins as through 1", async () => {
    const one = await hostWith(passing(1, "sync"));
    const hundred = await hostWith(passing(100, "sync"));
    expect((await hundred.checkToolCall(call)).action).toBe("allow");

    const throughOne = await promisesPerCall(() => one.checkToolCall(call));
    const throughHundred = await promisesPerCall(() => hundred.checkToolCall(call));
    expect(throughHundred).toBe(throughOne);
  });

  it("callTool creates as many promises through 100 sync plugins as through 1", async () => {
    const one = await hostWith(passing(1, "sync"));
    const hundred = await hostWith(passing(100, "sync"));
    expect((await hundred.callTool(call)).status).toBe("ok");

    const throughOne = await promisesPerCall(() => one.callTool(call));
    const throughHundred = await promisesPerCall(() => hundred.callTool(call));
    expect(throughHundred).toBe(throughOne);
  });

  it("the count does see a promise per plugin when hooks are async (the measure can fail)", async () => {
    const one = await hostWith(passing(1, "async"));
    const hundred = await hostWith(passing(100, "async"));

    const throughOne = await promisesPerCall(() => one.checkToolCall(call));
    const throughHundred = await promisesPerCall(() => hundred.checkToolCall(call));
    // Each async hook returns at least its own promise, so 99 more plugins mean at least 99 more promises.
    expect(throughHundred - throughOne).toBeGreaterThanOrEqual(99);
  });
});
