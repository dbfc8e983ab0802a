/**
 * The first JSON object in a model's answer: the whole text, a fenced block, or the first balanced
 * `{…}` in surrounding prose that parses. Undefined when there is none.
 */
export function parseLenientJson(text: string): unknown {
  const whole = tryParse(text.trim());
  if (whole !== undefined) return whole;
  for (const fenced of text.matchAll(/```(?:json)?\s*([\s\S]*?)```/gi)) {
    const value = tryParse((fenced[1] ?? "").trim());
    if (value !== undefined) return value;
  }
  for (let start = text.indexOf("{"); start !== -1; start = text.indexOf("{", start + 1)) {
    const end = balancedEnd(text, start);
    if (end === -1) continue;
    const value = tryParse(text.slice(start, end + 1));
    if (value !== undefined) return value;
  }
  return undefined;
}

function tryParse(text: string): object | undefined {
  if (!text.startsWith("{")) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === "object" && value !== null && !Array.isArray(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/** The index of the `}` closing the `{` at `start`, skipping strings; -1 when it never closes. */
function balancedEnd(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let index = start; index < text.length; index++) {
    const char = text[index];
    if (inString) {
      if (char === "\\") index++;
      else if (char === '"') inString = false;
    } else if (char === '"') inString = true;
    else if (char === "{") depth++;
    else if (char === "}" && --depth === 0) return index;
  }
  return -1;
}
