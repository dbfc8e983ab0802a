/** A window length as people say it: `500ms`, `1.5s`, `60s`, `5min`, `1h`. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000}h`;
  if (ms % 60_000 === 0 && ms >= 120_000) return `${ms / 60_000}min`;
  return `${Math.round(ms / 100) / 10}s`;
}

/**
 * How long to wait, as people read it, rounded up so the model never retries too early: `42s`, `5 min`,
 * `1 h 30 min`, `24 h`, `3 days`; at least `1s`, so it never reads "retry in 0s".
 */
export function formatRetry(ms: number): string {
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.ceil(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  if (minutes < 120) return minutes === 60 ? "1 h" : `1 h ${minutes - 60} min`;
  const hours = Math.ceil(minutes / 60);
  if (hours <= 48) return `${hours} h`;
  return `${Math.ceil(hours / 24)} days`;
}
