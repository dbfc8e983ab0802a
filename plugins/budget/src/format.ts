/** A window length as people say it: `500ms`, `1.5s`, `60s`, `5min`, `1h`. */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000}h`;
  if (ms % 60_000 === 0 && ms >= 120_000) return `${ms / 60_000}min`;
  return `${Math.round(ms / 100) / 10}s`;
}

/** How long to wait, rounded up to whole seconds, and at least `1s` so the model never reads "retry in 0s". */
export function formatRetry(ms: number): string {
  return `${Math.max(1, Math.ceil(ms / 1000))}s`;
}
