import { describe, expect, it, vi } from "vitest";
import { CliError, exitCodes } from "./cli-error.js";

describe("CliError", () => {
  // The bundled `new` and `add` commands carry their own copy of the class; main.ts's `instanceof`
  // must still recognise their errors, or their exit codes and one-line messages would be lost.
  it("is recognised by instanceof across two copies of the module, and nothing else is", async () => {
    vi.resetModules();
    const copy = await import("./cli-error.js");
    expect(copy.CliError).not.toBe(CliError);
    const fromCopy = new copy.CliError("bad name", exitCodes.usage);
    expect(fromCopy instanceof CliError).toBe(true);
    expect(new CliError("x", exitCodes.failure) instanceof copy.CliError).toBe(true);
    expect(new Error("plain") instanceof CliError).toBe(false);
    expect(Object.assign(new Error("lookalike"), { name: "CliError", exitCode: 2 }) instanceof CliError).toBe(false);
    expect((null as unknown) instanceof CliError).toBe(false);
  });
});
