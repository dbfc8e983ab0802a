/** The few styles the CLI prints with. */
export interface Colors {
  bold(text: string): string;
  dim(text: string): string;
  green(text: string): string;
  red(text: string): string;
  yellow(text: string): string;
  cyan(text: string): string;
}

// [open, close]; bold and dim share their close code, so a close inside bold text reopens bold.
const styles: Record<keyof Colors, [number, number]> = { bold: [1, 22], dim: [2, 22], green: [32, 39], red: [31, 39], yellow: [33, 39], cyan: [36, 39] };

/**
 * ANSI styles, or identity functions when `enabled` is false. Written here instead of importing
 * picocolors: its module reads `process.stdout` on load to detect colour support, which creates the
 * stream (Node's streams stack) in every process, including the hook that prints JSON only.
 */
export function createColors(enabled: boolean): Colors {
  const style = ([open, close]: [number, number]) => {
    if (!enabled) return (text: string) => text;
    const openCode = `\u001b[${open}m`;
    const closeCode = `\u001b[${close}m`;
    return (text: string) => `${openCode}${String(text).replaceAll(closeCode, closeCode + openCode)}${closeCode}`;
  };
  return {
    bold: style(styles.bold),
    dim: style(styles.dim),
    green: style(styles.green),
    red: style(styles.red),
    yellow: style(styles.yellow),
    cyan: style(styles.cyan),
  };
}
