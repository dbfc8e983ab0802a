/**
 * Filters whose output follows from their input alone: `tr`, `rev`, `sed 's/…/…/'`, `cat`, `tac`,
 * `tee` (decoders, `base64 -d` and the like, are refused by the guard whatever they decode). Text known on the line and sent through them into a shell (`echo 'ez -ez /' | tr z r | sh`)
 * is read as the script it becomes. Undefined when the output cannot be known (a file operand, an option or
 * a sed script this reading does not know).
 */

export const transformNames: ReadonlySet<string> = new Set(["tr", "rev", "sed", "cat", "tac", "tee"]);

export function transformText(name: string, args: readonly string[], input: string): string | undefined {
  switch (name) {
    case "cat":
      return args.every((arg) => arg === "-") ? input : undefined;
    case "tee":
      return args.every((arg) => arg.startsWith("-") || !arg.startsWith("/dev/")) ? input : undefined;
    case "rev":
      return args.length === 0 ? mapLines(input, (line) => [...line].reverse().join("")) : undefined;
    case "tac":
      return args.length === 0 ? mapLines(input, (line) => line, true) : undefined;
    case "tr":
      return translate(args, input);
    case "sed":
      return substitute(args, input);
    default:
      return undefined;
  }
}

function mapLines(input: string, each: (line: string) => string, reverse = false): string {
  const lines = input.endsWith("\n") ? input.slice(0, -1).split("\n") : input.split("\n");
  const mapped = lines.map(each);
  return `${(reverse ? mapped.reverse() : mapped).join("\n")}\n`;
}

const classes: Record<string, string> = {
  "[:upper:]": "A-Z",
  "[:lower:]": "a-z",
  "[:digit:]": "0-9",
  "[:alpha:]": "A-Za-z",
  "[:alnum:]": "0-9A-Za-z",
  "[:space:]": " \\t\\n\\r",
};

/** A `tr` set, ranges (`a-z`) and escapes (`\n`) spelled out; undefined for classes (`[:upper:]`) and the like. */
function trSet(spec: string): string[] | undefined {
  const named = classes[spec];
  if (named !== undefined) return trSet(named);
  if (spec.includes("[:") || spec.includes("[=") || /\[.\*/.test(spec)) return undefined;
  const chars: string[] = [];
  const escapes: Record<string, string> = { n: "\n", t: "\t", r: "\r", "\\": "\\" };
  for (let i = 0; i < spec.length; i++) {
    let char = spec[i]!;
    if (char === "\\" && i + 1 < spec.length) char = escapes[spec[++i]!] ?? spec[i]!;
    if (spec[i + 1] === "-" && i + 2 < spec.length) {
      const end = spec.charCodeAt(i + 2);
      if (end - char.charCodeAt(0) > 1024) return undefined;
      for (let code = char.charCodeAt(0); code <= end; code++) chars.push(String.fromCharCode(code));
      i += 2;
    } else chars.push(char);
  }
  return chars;
}

function translate(args: readonly string[], input: string): string | undefined {
  const options = args.filter((arg) => arg.startsWith("-") && arg.length > 1);
  const sets = args.filter((arg) => !arg.startsWith("-") || arg.length === 1);
  if (options.some((option) => !/^-[ds]+$/.test(option))) return undefined;
  const remove = options.some((option) => option.includes("d"));
  const squeeze = options.some((option) => option.includes("s"));
  const from = sets[0] === undefined ? undefined : trSet(sets[0]);
  if (from === undefined) return undefined;
  if (remove) {
    if (sets.length !== 1 || squeeze) return undefined;
    return [...input].filter((char) => !from.includes(char)).join("");
  }
  if (squeeze && sets.length === 1) {
    let out = "";
    for (const char of input) if (!(out.endsWith(char) && from.includes(char))) out += char;
    return out;
  }
  const to = sets[1] === undefined ? undefined : trSet(sets[1]);
  if (to === undefined || to.length === 0 || sets.length !== 2) return undefined;
  let out = "";
  for (const char of input) {
    const index = from.lastIndexOf(char);
    const mapped = index === -1 ? char : to[Math.min(index, to.length - 1)]!;
    if (squeeze && out.endsWith(mapped) && to.includes(mapped)) continue;
    out += mapped;
  }
  return out;
}

/** `sed 's/a/b/'`, `sed -e 's|a|b|g'`: literal substitutions only (no regex characters, no other commands). */
function substitute(args: readonly string[], input: string): string | undefined {
  const scripts: string[] = [];
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    if (arg === "-e") scripts.push(args[++index] ?? "");
    else if (arg.startsWith("-")) return undefined;
    else if (scripts.length === 0) scripts.push(arg);
    else return undefined; // a file operand
  }
  let text = input;
  for (const script of scripts) {
    for (const command of script.split(";")) {
      const match = /^\s*s(.)((?:(?!\1).)*)\1((?:(?!\1).)*)\1(g?)\s*$/.exec(command);
      if (match === null || /[\\.*[\]^$&]/.test(match[2]! + match[3]!)) return undefined;
      const [, , pattern, replacement, global] = match;
      if (pattern === "") return undefined;
      text = mapLines(text, (line) => (global ? line.replaceAll(pattern!, replacement!) : line.replace(pattern!, replacement!))).slice(
        0,
        text.endsWith("\n") ? undefined : -1,
      );
    }
  }
  return text;
}
