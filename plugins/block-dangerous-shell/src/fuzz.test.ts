import { describe, expect, it } from "vitest";
import { checkCommand } from "./check.js";
import { resolveOptions } from "./options.js";
import { parseScript } from "@toolgate/shell";

const guard = resolveOptions(
  { packs: ["databases", "containers", "kubernetes", "cloud", "terraform"] },
  { projectRoot: "/home/dev/project", home: "/home/dev" },
).guard;

/** A small seeded generator (mulberry32), so a failure can be replayed. */
function random(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pieces = [
  "rm",
  " -rf ",
  "/",
  "~",
  "$HOME",
  "$(",
  ")",
  "`",
  "'",
  '"',
  "\\",
  "<<",
  "EOF",
  "\n",
  "<<<",
  "<(",
  ">(",
  "|",
  "||",
  "&&",
  ";",
  "&",
  "(",
  ")",
  "{",
  "}",
  "${",
  "sh -c ",
  "bash ",
  "eval ",
  "echo ",
  "xargs ",
  "find ",
  " -delete",
  " -exec ",
  "{}",
  "\\;",
  "python3 -c ",
  "node -e ",
  "shutil.rmtree(",
  "'/'",
  "git ",
  "reset --hard",
  "push -f",
  "sudo ",
  "env X=1 ",
  "$X",
  "X=",
  "for x in a b; do ",
  "done",
  "cd ",
  "..",
  "*",
  "#",
  " ",
  "\t",
  "$'",
  "$((",
  "))",
  "-",
  "--",
  "=",
  "\u0000",
  "é",
  "\u202e",
];

const seeds = [
  "rm -rf /",
  'bash -c "$(cat <<EOF\nrm -rf /\nEOF\n)"',
  "git commit -m \"$(cat <<'EOF'\nDon't\nEOF\n)\"",
  "echo 'rm -rf /' | bash",
  "find / -exec rm -rf {} +",
  "python3 -c \"import shutil; shutil.rmtree('/')\"",
  'for d in build dist; do rm -rf "$d"; done',
  "cd /; rm -rf *",
];

function generate(next: () => number): string {
  const length = Math.floor(next() * 60);
  let text = "";
  for (let i = 0; i < length; i++) text += pieces[Math.floor(next() * pieces.length)];
  return text;
}

function mutate(source: string, next: () => number): string {
  let text = source;
  const edits = 1 + Math.floor(next() * 4);
  for (let i = 0; i < edits; i++) {
    const at = Math.floor(next() * (text.length + 1));
    const roll = next();
    if (roll < 0.4) text = text.slice(0, at) + pieces[Math.floor(next() * pieces.length)] + text.slice(at);
    else if (roll < 0.7) text = text.slice(0, at) + text.slice(at + 1 + Math.floor(next() * 3));
    else text = text.slice(0, at) + text.slice(at, at + 8).repeat(2) + text.slice(at + 8);
  }
  return text;
}

describe("parser fuzz: random and mutated input never crashes", () => {
  it("5,000 random commands each give a decision", () => {
    const next = random(1);
    for (let i = 0; i < 5_000; i++) {
      const command = generate(next);
      const result = checkCommand(command, guard);
      expect(result.analysis.source, JSON.stringify(command)).toBe(command);
    }
  });

  it("5,000 mutations of dangerous commands each give a decision", () => {
    const next = random(2);
    for (let i = 0; i < 5_000; i++) {
      const command = mutate(seeds[i % seeds.length]!, next);
      expect(() => checkCommand(command, guard), JSON.stringify(command)).not.toThrow();
    }
  });

  it("a mutation that keeps `rm -rf /` whole and parseable is still refused", () => {
    const next = random(3);
    let checked = 0;
    for (let i = 0; i < 2_000; i++) {
      const command = `${generate(next).replace(/[`'"$\\(){}<#]/g, "")} ; rm -rf /`;
      if (parseScript(command).problem !== undefined) continue;
      checked++;
      expect(checkCommand(command, guard).violation, JSON.stringify(command)).toBeDefined();
    }
    expect(checked).toBeGreaterThan(100);
  });
});

function nestShells(command: string, levels: number): string {
  let script = command;
  for (let level = 0; level < levels; level++) script = `sh -c '${script.replaceAll("'", `'\\''`)}'`;
  return script;
}

// Pathological input: each must return (no stack overflow, no hang) and fail closed.
const pathological: [name: string, command: string][] = [
  ["100,000 nested parentheses", `${"(".repeat(100_000)}ls${")".repeat(100_000)}`],
  ["100,000 unclosed parentheses", "(".repeat(100_000)],
  ["100,000 `$(`", "$(".repeat(100_000)],
  ["100,000 balanced `$(`", `echo ${"$(".repeat(100_000)}x${")".repeat(100_000)}`],
  ['100,000 `"$(`', `echo ${'"$('.repeat(100_000)}`],
  ["100,000 backticks and `$(` interleaved", "`$(".repeat(100_000)],
  ["100,000 `${`", "echo ${".repeat(100_000)],
  ["100,000 nested groups `{ `", "{ ".repeat(100_000)],
  ["a 1 MB unterminated double quote in sh -c", `sh -c 'echo "${"a".repeat(1_000_000)}'`],
  ["a 1 MB unterminated single quote after 10,000 lines", `${"(echo\n".repeat(10_000)}echo '${"a".repeat(1_000_000)}`],
  ["100,000 unclosed heredocs", "cat <<A ".repeat(100_000)],
  ["100,000 pipes", `${"ls | ".repeat(100_000)}ls`],
  ["100,000 commands", "ls; ".repeat(100_000)],
  ["eval nested 1,000 deep", `${"eval ".repeat(1_000)}ls`],
  ["sh -c nested 10 deep", nestShells("ls", 10)],
  ["find -exec nested 10,000 deep", `${"find . -exec ".repeat(10_000)}ls`],
  ["a variable doubled 60 times", `X=ab; ${"X=$X$X; ".repeat(60)}rm -rf $X\necho 'unterminated`],
  ["for loops nested 50 deep", `${"for x in 1 2 3 4 5 6 7 8; do ".repeat(50)}rm -rf $x`],
  ["20,000 known substitutions in one word", `echo ${"$(echo a)".repeat(20_000)}`],
  ["a loop over 5,000 values", `for x in ${"a ".repeat(5_000)}/; do rm -r $x; done`],
  ["python with 100,000 rmtree calls", `python3 -c "${"shutil.rmtree(x);".repeat(100_000)}"`],
  ["100,000 function headers `f() `", "f() ".repeat(100_000)],
  ["100,000 `function f `", "function f ".repeat(100_000)],
  ["20,000 nested function definitions", "f() { f() { ".repeat(20_000)],
  ["functions calling two others, 30 deep", `${Array.from({ length: 30 }, (_, i) => `f${i}() { f${i + 1}; f${i + 1}; }`).join("; ")}; f0`],
];

describe("pathological input returns and fails closed", () => {
  it.each(pathological)("%s", (_name, command) => {
    const { violation } = checkCommand(command, guard);
    expect(violation).toBeDefined();
  });

  it("nesting up to the limit is read through", () => {
    expect(checkCommand(nestShells("rm -rf /", 7), guard).violation?.rule).toBe("rm-root");
    expect(checkCommand(`${"eval ".repeat(7)}rm -rf /`, guard).violation?.rule).toBe("rm-root");
  });

  it("a recursive function is read once, not forever", () => {
    expect(checkCommand("f() { f; f; }; f", guard).violation).toBeUndefined();
    expect(checkCommand("f() { f; rm -rf /; }; f", guard).violation?.rule).toBe("rm-root");
  });

  it("a 1 MB well-formed quote is read as data", () => {
    expect(checkCommand(`echo '${"rm -rf / ".repeat(100_000)}'`, guard).violation).toBeUndefined();
  });
});
