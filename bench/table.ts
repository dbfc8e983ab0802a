/** A markdown table with aligned columns, readable in a terminal and pasteable into a note. */
export function markdownTable(headers: readonly string[], rows: readonly (readonly string[])[], rightAligned: (column: number) => boolean): string {
  const widths = headers.map((header, column) => Math.max(3, header.length, ...rows.map((row) => row[column]!.length)));
  const pad = (cell: string, column: number) => (rightAligned(column) ? cell.padStart(widths[column]!) : cell.padEnd(widths[column]!));
  const line = (cells: readonly string[]) => `| ${cells.map(pad).join(" | ")} |`;
  const rule = `|${widths.map((width, column) => (rightAligned(column) ? `${"-".repeat(width + 1)}:` : `${"-".repeat(width + 2)}`)).join("|")}|`;
  return [line(headers), rule, ...rows.map(line)].join("\n");
}

export const formatNs = (ns: number) => (ns >= 100 ? ns.toFixed(0) : ns.toFixed(1));
export const formatRatio = (ratio: number) => `${ratio.toFixed(2)}×`;
export const formatMs = (ms: number) => (ms >= 10 ? ms.toFixed(0) : ms.toFixed(2));
