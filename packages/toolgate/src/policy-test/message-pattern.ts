import { describeThrown } from "@toolgate/host/internal";

/** A fixture's `message`: `/regex/flags`, or text the verdict's message must contain. */
export type MessagePattern = { regex: RegExp } | { text: string };

const regexForm = /^\/(.+)\/([a-z]*)$/s;

export function compileMessagePattern(source: string): { ok: true; value: MessagePattern } | { ok: false; error: string } {
  const match = regexForm.exec(source);
  if (!match) return { ok: true, value: { text: source } };
  try {
    return { ok: true, value: { regex: new RegExp(match[1]!, match[2]) } };
  } catch (error) {
    return { ok: false, error: `is not a valid regular expression: ${describeThrown(error)}` };
  }
}

export function matchesMessage(pattern: MessagePattern, message: string | undefined): boolean {
  if (message === undefined) return false;
  return "regex" in pattern ? pattern.regex.test(message) : message.includes(pattern.text);
}
