import { isShellCall, shellCommands, type ToolArgs } from "@toolgate/plugin-sdk";

/** How long a summary may be: a terminal line's worth. */
export const summaryLength = 160;

// Argument names that say what a call touches, most telling first.
const telling = ["file_path", "path", "notebook_path", "filePath", "file", "url", "uri", "pattern", "query", "sql", "name"];

/**
 * What a call ran, short enough for one line of `toolgate decisions` and the ui, with secrets masked: a
 * shell call's command lines, else the path, URL or query it names, else its first short string argument.
 * Masked before it is cut, so that a cut never leaves half of a secret the mask would have caught.
 */
export function callSummary(call: { readonly name: string; readonly kind?: string | undefined; readonly args: ToolArgs }): string | undefined {
  const text = summaryText(call);
  if (text === undefined || text === "") return undefined;
  const masked = maskSecrets(text.length > summaryLength * 4 ? text.slice(0, summaryLength * 4) : text)
    .replace(/\s+/g, " ")
    .trim();
  return masked.length > summaryLength ? `${masked.slice(0, summaryLength - 1)}…` : masked;
}

function summaryText(call: { readonly name: string; readonly kind?: string | undefined; readonly args: ToolArgs }): string | undefined {
  const { args } = call;
  if (isShellCall(call)) {
    const lines = shellCommands(call).flatMap(({ command }) => (command === undefined ? [] : [command]));
    if (lines.length > 0) return lines.join(" ; ");
  }
  for (const key of telling) {
    const value = args[key];
    if (typeof value === "string" && value !== "") return value;
  }
  for (const value of Object.values(args)) if (typeof value === "string" && value !== "" && value.length <= summaryLength * 4) return value;
  return undefined;
}

const mask = "***";

// Tokens whose shape gives them away: API keys of the common providers, JSON web tokens, private keys.
const tokenShapes: readonly RegExp[] = [
  /-----BEGIN [A-Z ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z ]*PRIVATE KEY-----|$)/g,
  /\b(?:sk|pk|rk)-(?:[A-Za-z0-9]+-)*[A-Za-z0-9_-]{16,}/g,
  /\bsk_(?:live|test)_[A-Za-z0-9]{16,}/g,
  /\bgh[pousr]_[A-Za-z0-9]{20,}/g,
  /\bgithub_pat_[A-Za-z0-9_]{20,}/g,
  /\bglpat-[A-Za-z0-9_-]{16,}/g,
  /\bxox[abposr]-[A-Za-z0-9-]{10,}/g,
  /\bAKIA[0-9A-Z]{16}\b/g,
  /\bAIza[0-9A-Za-z_-]{30,}/g,
  /\bnpm_[A-Za-z0-9]{30,}/g,
  /\beyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}/g,
];

// Names that hold a secret: in `NAME=value`, `--name value`, `--name=value`, `"name": "value"` and `-H 'Authorization: …'`.
const secretName = "[A-Za-z0-9_.-]*(?:secret|token(?!s)|passw(?:or)?d|passwd|api[_-]?key|access[_-]?key|private[_-]?key|credential|auth(?!or))[A-Za-z0-9_.-]*";
const assignment = new RegExp(String.raw`(\b${secretName}["']?\s*[=:]\s*)(?:"[^"]*"|'[^']*'|[^\s"',;&|]+)`, "gi");
const option = new RegExp(String.raw`(--${secretName}[ =])(?:"[^"]*"|'[^']*'|[^\s"']+)`, "gi");
const bearer = /\b(Bearer|Basic|Token)\s+[A-Za-z0-9._~+/=-]{8,}/gi;
const urlPassword = /(\b[a-z][a-z0-9+.-]*:\/\/[^\s/:@]+:)[^\s/@]+@/gi;

// Every secret the masks below catch holds one of these: most summaries hold none, and pay for one test.
const mayHoldSecret =
  /-----BEGIN|\b(?:sk|pk|rk)[-_]|\bgh[pousr]_|github_pat_|glpat-|xox[abposr]-|AKIA|AIza|npm_|eyJ|bearer|basic|token|secret|passw|key|credential|auth|:\/\/[^\s/:@]+:/i;

/** The text with recognisable secrets replaced by `***`. */
export function maskSecrets(text: string): string {
  if (!mayHoldSecret.test(text)) return text;
  let masked = text;
  for (const shape of tokenShapes) masked = masked.replace(shape, mask);
  return masked.replace(urlPassword, `$1${mask}@`).replace(bearer, `$1 ${mask}`).replace(option, `$1${mask}`).replace(assignment, `$1${mask}`);
}
