/** Milliseconds to the microsecond: plenty for a record, and short lines. */
export function roundMs(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}

/**
 * `String(roundMs(ms))`, written from the whole microseconds: a double's shortest text costs several
 * times what an integer's does, and a record line holds one per participant. The same text, since the
 * double nearest to a whole number of microseconds over 1000 prints as that decimal (round-ms.test.ts).
 */
export function msText(ms: number): string {
  const us = Math.round(ms * 1000);
  if (!(us >= 0 && us <= Number.MAX_SAFE_INTEGER)) return `${us / 1000}`;
  const whole = Math.floor(us / 1000);
  const fraction = us - whole * 1000;
  if (fraction === 0) return `${whole}`;
  const digits = fraction < 10 ? `00${fraction}` : fraction < 100 ? `0${fraction}` : `${fraction}`;
  return `${whole}.${digits.charCodeAt(2) !== 48 ? digits : digits.charCodeAt(1) !== 48 ? digits.slice(0, 2) : digits.slice(0, 1)}`;
}
