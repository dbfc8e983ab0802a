/**
 * How often block-dangerous-shell agrees with two peer guards on their own public test cases. The peers'
 * checkouts are arguments (nothing of theirs is kept here): dcg's regression corpus
 * (`tests/corpus/**.toml`: `command` with `expected` or `expected_decision`) and cc-safety-net's rule tests
 * (`tests/core/**.test.ts`: `assertBlocked(command, …)` / `assertAllowed(command)` calls without a working
 * folder or environment of their own). Each line is decided in a project at /home/dev/project.
 *
 *   HOME=/home/dev tsx scripts/peer-agreement.ts --dcg <checkout> --cc-safety-net <checkout> [--list]
 */
import { readdirSync, readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import ts from "typescript";
import { checkCommand } from "../plugins/block-dangerous-shell/src/check.js";
import { resolveOptions } from "../plugins/block-dangerous-shell/src/options.js";

interface PeerCase {
  command: string;
  expected: "deny" | "allow";
  from: string;
}

const projectRoot = "/home/dev/project";
const { values } = parseArgs({ options: { dcg: { type: "string" }, "cc-safety-net": { type: "string" }, list: { type: "boolean" } } });
const { guard } = resolveOptions({}, { projectRoot, home: "/home/dev" });

for (const [name, cases] of [
  ["dcg", values.dcg === undefined ? undefined : dcgCases(values.dcg)],
  ["cc-safety-net", values["cc-safety-net"] === undefined ? undefined : ccSafetyNetCases(values["cc-safety-net"])],
] as const) {
  if (cases === undefined) continue;
  const disagreements = cases.filter((peerCase) => verdict(peerCase.command) !== peerCase.expected);
  const agreed = cases.length - disagreements.length;
  console.log(`${name}: agrees with ${agreed} of ${cases.length} cases (${((agreed / cases.length) * 100).toFixed(1)}%)`);
  const missed = disagreements.filter((peerCase) => peerCase.expected === "deny");
  console.log(`  allowed here, denied there: ${missed.length}; denied here, allowed there: ${disagreements.length - missed.length}`);
  if (values.list)
    for (const peerCase of disagreements)
      console.log(`  ${peerCase.expected === "deny" ? "ALLOWED" : "DENIED "} ${JSON.stringify(peerCase.command)}  (${peerCase.from})`);
}

function verdict(command: string): "deny" | "allow" {
  return checkCommand(command, guard).violation === undefined ? "allow" : "deny";
}

function dcgCases(checkout: string): PeerCase[] {
  const cases: PeerCase[] = [];
  for (const file of filesUnder(checkout, "tests/corpus", ".toml")) {
    const text = readFileSync(`${checkout}/${file}`, "utf8");
    for (const block of text.split(/^\[\[case\]\]\s*$/m).slice(1)) {
      const command = tomlString(block, "command");
      const expected = tomlString(block, "expected") ?? tomlString(block, "expected_decision");
      if (command !== undefined && (expected === "deny" || expected === "allow")) cases.push({ command, expected, from: file });
    }
  }
  return cases;
}

/** A TOML basic ("…") or literal ('…') string value of `key`, on one line. */
function tomlString(block: string, key: string): string | undefined {
  const match = new RegExp(`^${key}\\s*=\\s*("(?:[^"\\\\]|\\\\.)*"|'[^']*')`, "m").exec(block);
  if (match === null) return undefined;
  const literal = match[1]!;
  return literal.startsWith("'")
    ? literal.slice(1, -1)
    : (JSON.parse(literal.replace(/\\U([0-9A-Fa-f]{8})/g, (_, hex) => String.fromCodePoint(Number.parseInt(hex, 16)))) as string);
}

function ccSafetyNetCases(checkout: string): PeerCase[] {
  const cases: PeerCase[] = [];
  for (const file of filesUnder(checkout, "tests/core", ".test.ts")) {
    const source = ts.createSourceFile(file, readFileSync(`${checkout}/${file}`, "utf8"), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node, insideEnv: boolean): void => {
      if (ts.isCallExpression(node) && ts.isIdentifier(node.expression)) {
        const callee = node.expression.text;
        if (callee === "withEnv") insideEnv = true;
        const [first] = node.arguments;
        const plain = first !== undefined && (ts.isStringLiteral(first) || ts.isNoSubstitutionTemplateLiteral(first));
        if (!insideEnv && plain && callee === "assertBlocked" && node.arguments.length === 2) cases.push({ command: first.text, expected: "deny", from: file });
        if (!insideEnv && plain && callee === "assertAllowed" && node.arguments.length === 1)
          cases.push({ command: first.text, expected: "allow", from: file });
      }
      node.forEachChild((child) => visit(child, insideEnv));
    };
    visit(source, false);
  }
  return cases;
}

function filesUnder(root: string, folder: string, ending: string): string[] {
  const entries = readdirSync(`${root}/${folder}`, { recursive: true, encoding: "utf8" });
  return entries
    .filter((entry) => entry.endsWith(ending))
    .map((entry) => `${folder}/${entry}`)
    .sort();
}
