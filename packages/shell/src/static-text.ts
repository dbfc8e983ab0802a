import type { Invocation } from "./invocations.js";
import type { Redirect } from "./parse.js";
import { echoOutput, printfOutput } from "./printf.js";

/** What reaches an invocation's standard input, when it is known: heredocs, here-strings, `echo … |`. */
export function stdinTexts(invocation: Invocation): string[] {
  const texts: string[] = [];
  for (const redirect of invocation.redirects) {
    const text = staticInput(redirect);
    if (text !== undefined) texts.push(text);
  }
  for (const upstream of invocation.upstream) {
    if (upstream.via.length !== invocation.via.length) continue; // only the pipeline's own members
    const output = staticOutput(upstream, staticInput);
    if (output !== undefined) texts.push(output);
  }
  return texts;
}

/**
 * The items xargs or parallel reads, when its input is known (`echo / | xargs rm -rf`): one per word, or
 * one per line where each input replaces a placeholder (`xargs -I{}`, parallel).
 */
export function knownInputs(invocation: Invocation, items: "words" | "lines" = "words"): string[] | undefined {
  if (invocation.inputFromFile) return undefined;
  const texts = stdinTexts(invocation);
  if (texts.length === 0) return undefined;
  // A NUL ends an item too (`printf '%s\0' ~ | xargs -0`): no argument can hold one.
  const found = texts.flatMap((text) => text.split(items === "lines" ? /[\n\0]/ : /[\s\0]+/)).filter((item) => item.trim() !== "");
  return found.length === 0 ? undefined : found;
}

export function staticInput(redirect: Redirect): string | undefined {
  if (redirect.operator === "<<<") return redirect.target.text;
  // An unquoted delimiter (`<<EOF`): bash removes the backslash of `\$`, `` \` ``, `\\` and a line
  // continuation in the body, so `\$(cmd)` reaches a shell reading it as `$(cmd)`.
  if (redirect.body === undefined || redirect.target.plain !== true || !redirect.body.includes("\\")) return redirect.body;
  return redirect.body.replace(/\\([$`\\\n])/g, (_, char: string) => (char === "\n" ? "" : char));
}

/** What a command prints when that is known from its words alone: `echo` (without its final newline), `printf`, `cat <<EOF`. */
export function staticOutput(invocation: Invocation, inputOf: (redirect: Redirect) => string | undefined): string | undefined {
  const { name, args } = invocation;
  if (name === "echo") return echoOutput(args).text;
  if (name === "printf") return printfOutput(args);
  if (name === "cat" && args.every((arg) => arg === "-" || arg.startsWith("-"))) {
    for (const redirect of invocation.redirects) {
      const text = inputOf(redirect);
      if (text !== undefined) return text;
    }
  }
  return undefined;
}
