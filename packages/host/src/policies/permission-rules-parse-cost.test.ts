import { beforeEach, describe, expect, it, vi } from "vitest";

const counted = vi.hoisted(() => ({ analyze: 0, simpleCommands: 0 }));

vi.mock("@toolgate/shell", async (importOriginal) => {
  const shell = await importOriginal<typeof import("@toolgate/shell")>();
  return {
    ...shell,
    // The rules read a line through the shared reading (`sharedAnalysis`, one per decision across its consumers).
    sharedAnalysis: (...args: Parameters<typeof shell.sharedAnalysis>) => (counted.analyze++, shell.sharedAnalysis(...args)),
    simpleCommands: (source: string) => (counted.simpleCommands++, shell.simpleCommands(source)),
  };
});

const { PermissionRules } = await import("./permission-rules.js");

describe("parse cost of shell-aware rules", () => {
  beforeEach(() => {
    counted.analyze = 0;
    counted.simpleCommands = 0;
  });

  it("a line is parsed once per check, however many rules read it", () => {
    const rules = new PermissionRules({
      deny: ["bash:command=rm*", "bash:command=*sudo*", "bash:cmd=x*"],
      ask: ["bash:command=git push*"],
      allow: ["bash:command=git status*", "bash:command=ls*"],
    });
    expect(rules.check("bash", { command: "git status; ls" }, "shell")?.decision.action).toBe("allow");
    expect(counted).toEqual({ analyze: 1, simpleCommands: 1 });
    rules.check("bash", { command: "git status; ls" }, "shell");
    expect(counted).toEqual({ analyze: 2, simpleCommands: 2 });
  });

  it("nothing is parsed for a call no command rule reads, nor for a tool that is no shell", () => {
    const rules = new PermissionRules({ deny: ["bash:command=rm*", "write_file:path=/etc/*"], allow: ["read_*"] });
    rules.check("read_file", { command: "rm x" }, "function");
    rules.check("write_file", { path: "/etc/x", command: "rm x" }, "function");
    rules.check("notes", { command: "rm x" }, "function");
    rules.check("bash", { description: "rm x" }, "shell");
    expect(counted).toEqual({ analyze: 0, simpleCommands: 0 });
    new PermissionRules({}).check("bash", { command: "rm x" }, "shell");
    expect(counted).toEqual({ analyze: 0, simpleCommands: 0 });
  });
});
