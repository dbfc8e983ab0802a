import type { OpenAIToolMessage, ToolCall, ToolResult } from "@toolgate/host";
import { createColors } from "picocolors";
import type { AssistantMessage } from "./fake-model.js";

/** What the gate decided about one call, and which plugin decided it. */
export interface Decision {
  action: "ALLOW" | "BLOCK" | "MODIFY" | "ASK";
  plugin?: string;
  message?: string;
  /** The arguments the tool ran with, for MODIFY. */
  args?: Record<string, unknown>;
}

export interface PluginLine {
  name: string;
  version?: string;
  status: "loaded" | "failed";
  error?: string;
}

export interface Summary {
  calls: number;
  ran: number;
  /** Per plugin: the tools whose calls it blocked, one entry per call. */
  blocked: Record<string, string[]>;
  auditFile: string;
  auditLines: number;
  /** One line of the audit file, as an example (its timestamp left out, so the output is stable). */
  auditExample?: string;
}

export type TranscriptEvent =
  | { type: "act"; title: string; premise: string; config: string; plugins: PluginLine[] }
  | { type: "user"; content: string }
  | { type: "assistant"; message: AssistantMessage }
  | { type: "tool"; call: ToolCall; decision: Decision; status: ToolResult["status"]; message: OpenAIToolMessage }
  | { type: "summary"; summary: Summary };

export interface Transcript {
  write(event: TranscriptEvent): void;
}

/** One JSON object per line, for machines. */
export function createJsonTranscript(out: (line: string) => void): Transcript {
  return { write: (event) => out(JSON.stringify(event)) };
}

const intro = [
  "A scripted agent session. A fake, deterministic model (no API key, no network) works in a",
  "throwaway project folder. Every tool call it makes goes through the toolgate host, where each",
  "plugin's pre_tool_call hook may block it. A blocked call never runs: the model gets the plugin's",
  "reason back as the tool result (OpenAI chat format) and has to change course.",
  "",
  "Reading it: `→ tool {args}` is a call the model made; the next line is the gate's decision (ALLOW or",
  "BLOCK, and the plugin that made it); below that, the exact tool message the model receives.",
];

/** A transcript for people: colours only when writing to a terminal. */
export function createTextTranscript(out: (line: string) => void, useColor: boolean): Transcript {
  const c = createColors(useColor);
  let afterBlock = false;
  const heading = (text: string, rule: string) => [c.bold(text), c.dim(rule.repeat(text.length))];
  const indent = (text: string, prefix: string) =>
    text
      .split("\n")
      .map((line) => (prefix + line).trimEnd())
      .join("\n");

  out([...heading("toolgate demo", "="), ...intro].join("\n"));

  const renderers: { [Type in TranscriptEvent["type"]]: (event: Extract<TranscriptEvent, { type: Type }>) => string } = {
    act: ({ title, premise, config, plugins }) =>
      [
        "",
        ...heading(title, "-"),
        premise,
        `${c.dim("config: ")} ${config}`,
        `${c.dim("plugins:")} ${plugins.map((plugin) => (plugin.status === "loaded" ? plugin.name : c.red(`${plugin.name} (failed: ${plugin.error})`))).join(", ")}`,
      ].join("\n"),
    user: ({ content }) => `\n${c.bold(c.cyan("user:"))}  ${content}`,
    assistant: ({ message }) => {
      const label = afterBlock ? "model, after the block:" : "model:";
      afterBlock = false;
      const text = message.content ?? "";
      return `\n${c.bold(c.magenta(label))} ${indent(text, "  ").trimStart()}`;
    },
    tool: ({ call, decision, message }) => {
      if (decision.action === "BLOCK") afterBlock = true;
      const kind = call.kind === undefined ? "" : `, kind ${call.kind}`;
      return [
        "",
        `  ${c.bold(`→ ${call.name}`)} ${JSON.stringify(call.args)}  ${c.dim(`(${call.id}${kind})`)}`,
        `    ${renderDecision(decision)}`,
        `    ${c.dim("tool message the model receives:")}`,
        indent(JSON.stringify(message, null, 2), "    "),
      ].join("\n");
    },
    summary: ({ summary }) => {
      const blockedCount = Object.values(summary.blocked).reduce((total, tools) => total + tools.length, 0);
      const width = Math.max(0, ...Object.keys(summary.blocked).map((name) => name.length));
      return [
        "",
        ...heading("Summary", "-"),
        `${summary.calls} tool calls: ${summary.ran} ran, ${blockedCount} blocked`,
        ...Object.entries(summary.blocked).map(
          ([plugin, tools]) => `  ${c.red("blocked by")} ${plugin.padEnd(width)}  ${tools.length}  (${countedList(tools)})`,
        ),
        `audit-log wrote ${summary.auditLines} JSON lines to ${summary.auditFile}${summary.auditExample === undefined ? "" : ", e.g. (time left out):"}`,
        ...(summary.auditExample === undefined ? [] : [`  ${summary.auditExample}`]),
        "Every host is closed and the project folder is deleted.",
      ].join("\n");
    },
  };

  function renderDecision(decision: Decision): string {
    const by = decision.plugin === undefined ? "" : ` by ${decision.plugin}`;
    const detail = decision.message === undefined ? "" : `: ${decision.message}`;
    switch (decision.action) {
      case "BLOCK":
        return `${c.bold(c.red("BLOCK"))}${by}${detail}`;
      case "ASK":
        return `${c.bold(c.yellow("ASK"))}${by}${detail}`;
      case "MODIFY":
        return `${c.bold(c.yellow("MODIFY"))}: runs with ${JSON.stringify(decision.args)}`;
      case "ALLOW":
        return `${c.bold(c.green("ALLOW"))}${by === "" ? " (no plugin objected)" : by + detail}`;
    }
  }

  return {
    write(event) {
      out((renderers[event.type] as (event: TranscriptEvent) => string)(event));
    },
  };
}

/** ["search", "search", "terminal"] → "search ×2, terminal" */
function countedList(items: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const item of items) counts.set(item, (counts.get(item) ?? 0) + 1);
  return [...counts].map(([item, count]) => (count === 1 ? item : `${item} ×${count}`)).join(", ");
}

/** Passes every event on to `transcripts`, and counts the tool calls for the summary. */
export function createTally(...transcripts: Transcript[]): Transcript & { totals(): Omit<Summary, "auditFile" | "auditLines"> } {
  let calls = 0;
  let ran = 0;
  const blocked: Record<string, string[]> = {};
  return {
    write(event) {
      if (event.type === "tool") {
        calls++;
        if (event.status === "blocked") (blocked[event.decision.plugin ?? "the tool gate"] ??= []).push(event.call.name);
        else ran++;
      }
      for (const transcript of transcripts) transcript.write(event);
    },
    totals: () => ({ calls, ran, blocked }),
  };
}
