import { escapeControl } from "@toolgate/host/internal";
import type { Colors } from "../cli/colors.js";
import { recordMessage, type DecisionRecord } from "./record.js";
import { shadowChanges, shadowPhrase } from "./shadow-answers.js";

/**
 * One record on one terminal line: time, surface, verdict, tool, what it ran, who decided and why, then each
 * shadow participant that would have decided otherwise (`[shadow] plugin x would have blocked: …`). Everything
 * read from the file is escaped before it is put next to the colour codes: the log is text anyone could have written.
 */
export function formatRecordLine(record: DecisionRecord, colors: Colors): string {
  const verdict = verdictLabel(record.verdict, colors);
  const source = record.source === undefined ? colors.dim("-") : `${escapeControl(record.source.kind)} ${colors.bold(escapeControl(record.source.name))}`;
  const message = recordMessage(record);
  const tool = colors.bold(escapeControl(record.tool));
  return [
    colors.dim(escapeControl(record.time)),
    escapeControl(record.surface).padEnd(16),
    verdict,
    typeof record.summary === "string" && record.summary !== "" ? `${tool} ${colors.dim(escapeControl(record.summary))}` : tool,
    message === undefined ? source : `${source}: ${escapeControl(message)}`,
    ...shadowChanges(record).map((change) =>
      colors.yellow(`[shadow] ${escapeControl(`${change.participant.kind} ${change.participant.name} ${shadowPhrase(change)}`)}`),
    ),
  ].join("  ");
}

function verdictLabel(verdict: DecisionRecord["verdict"], colors: Colors): string {
  const label = verdict.toUpperCase().padEnd(5);
  if (verdict === "block") return colors.red(label);
  if (verdict === "ask") return colors.yellow(label);
  return colors.green(label);
}
