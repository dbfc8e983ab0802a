import { createHost, isToolgateError } from "@toolgate/host";
import { describe, expect, it } from "vitest";

async function rejection(options: object): Promise<Error> {
  const error = await createHost({ configFile: false, pluginsDir: false, logger: false, ...options } as never).catch((thrown: unknown) => thrown);
  expect(isToolgateError(error) && error.code).toBe("INVALID_OPTIONS");
  return error as Error;
}

describe("createHost() says what it took", () => {
  it.each([
    ["hookTimeoutMS", 10, "hookTimeoutMs"],
    ["plugin", ["./guard.ts"], "plugins"],
    ["permission", { deny: ["Bash"] }, "permissions"],
    ["onhookerror", "allow", "onHookError"],
  ])("rejects the unknown key %s, naming it and the key it is closest to", async (key, value, meant) => {
    const error = await rejection({ [key]: value });
    expect(error.message).toContain(`createHost(): ${key} is not a createHost option (`);
    expect(error.message).toContain(`did you mean "${meant}"?`);
  });

  it("suggests nothing for a key far from every option", async () => {
    const error = await rejection({ colour: "blue" });
    expect(error.message).toContain("colour is not a createHost option");
    expect(error.message).not.toContain("did you mean");
  });

  it("suggests inside nested settings too", async () => {
    expect((await rejection({ decisions: { logs: "x.jsonl" } })).message).toContain(
      'decisions.logs is not a decisions setting (log, args); did you mean "log"?',
    );
  });

  it("takes every documented option", async () => {
    const host = await createHost({ configFile: false, pluginsDir: false, logger: false, hookTimeoutMs: 100, storeWrites: "local", surface: "test", on: {} });
    await host.close();
  });
});
