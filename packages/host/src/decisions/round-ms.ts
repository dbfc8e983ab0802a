/** Milliseconds to the microsecond: plenty for a record, and short lines. */
export function roundMs(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}
