/** What a value is, for error messages: `null`, `an array`, `number`, … */
export function describeType(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value;
}
