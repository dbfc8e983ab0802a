import { readFileSync } from "node:fs";
import { checkCommand } from "../check.js";
import { resolveOptions } from "../options.js";

/** Where every corpus line is decided: a project in a home folder, as an agent's would be. */
const corpusPlace = { projectRoot: "/home/dev/project", home: "/home/dev" } as const;

/** The lines of a corpus file: comments and blank lines left out, `\n` and `\r` read as the characters. */
export function corpusLines(name: "benign" | "catastrophic"): string[] {
  const text = readFileSync(new URL(`./${name}.txt`, import.meta.url), "utf8");
  return text
    .split("\n")
    .filter((line) => line.trim() !== "" && !line.startsWith("#"))
    .map((line) => line.replaceAll("\\n", "\n").replaceAll("\\r", "\r"));
}

const { guard } = resolveOptions({}, corpusPlace);

/** The guard's rule that refuses the line with default options, or undefined when it is allowed. */
export function refusingRule(line: string): string | undefined {
  return checkCommand(line, guard).violation?.rule;
}
