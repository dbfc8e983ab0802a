import { definePlugin, optionsError, type PluginApi, type ToolArgs, type ToolCall, type Verdict } from "@toolgate/plugin-sdk";
import { appendFileSync, mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import * as v from "valibot";

const pluginName = "audit-log";

export interface AuditLogOptions {
  /** The JSON Lines file to append to, relative to the host's `cwd`. Its folder is created. @default ".toolgate/audit.jsonl" */
  file?: string;
  /** Record the arguments of allowed calls. Turn off when they may hold secrets. @default true */
  includeArgs?: boolean;
}

/** One line of the audit file. */
export type AuditEntry = {
  /** When the line was written, ISO 8601. */
  time: string;
  session: string;
  callId: string;
  tool: string;
} & (
  | {
      event: "decision";
      action: "allow" | "block";
      /** The plugin that blocked, or that explicitly allowed or asked. */
      plugin?: string;
      /** The block message, or the reason of an allow. */
      message?: string;
      /** The arguments the tool runs with (allowed calls, unless `includeArgs` is false). */
      args?: ToolArgs;
    }
  | {
      event: "result";
      status: "ok" | "blocked" | "error";
      /** Length of the text the model receives. */
      contentLength: number;
      blockedBy?: string;
    }
);

const OptionsSchema = v.strictObject(
  {
    file: v.optional(v.pipe(v.string("file must be a path (a string)"), v.nonEmpty("file must not be empty"))),
    includeArgs: v.optional(v.boolean("includeArgs must be true or false")),
  },
  "is not an option of this plugin (file, includeArgs)",
);

/**
 * Appends one JSON line per decision (`tool:before`, `tool:blocked`) and per result (`tool:end`). It only
 * listens to events, so it cannot change a decision, and a failing write never fails a call.
 */
export default definePlugin<AuditLogOptions>((options, api) => {
  const { file, includeArgs } = resolveOptions(options, api.cwd);
  const write = createLineWriter(file, api);
  const decided = new Set<string>();
  const base = (call: { id: string; name: string }) => ({ time: new Date().toISOString(), session: api.session.id, callId: call.id, tool: call.name });

  function logAllow(call: ToolCall, verdict: Verdict): void {
    write({
      ...base(call),
      event: "decision",
      action: "allow",
      ...(verdict.plugin === undefined ? {} : { plugin: verdict.plugin }),
      ...(verdict.message === undefined ? {} : { message: verdict.message }),
      ...(includeArgs ? { args: verdict.args } : {}),
    });
  }

  api.on("tool:before", ({ call, verdict }) => {
    decided.add(call.id);
    logAllow(call, verdict);
  });
  api.on("tool:blocked", ({ call, verdict, plugin }) => {
    decided.add(call.id);
    write({
      ...base(call),
      event: "decision",
      action: "block",
      ...(plugin === undefined ? {} : { plugin }),
      ...(verdict.message === undefined ? {} : { message: verdict.message }),
    });
  });
  api.on("tool:end", ({ call, status, result, verdict }) => {
    // The host emits no `tool:before` for an allowed call to an unknown tool: its decision is logged here.
    if (!decided.delete(call.id) && verdict?.action === "allow") logAllow(call, verdict);
    write({
      ...base(call),
      event: "result",
      status,
      contentLength: result.content.length,
      ...(result.blockedBy === undefined ? {} : { blockedBy: result.blockedBy }),
    });
  });

  return {
    name: pluginName,
    description: "Appends one JSON line per tool-call decision and result to an audit file",
  };
});

function resolveOptions(input: unknown, cwd: string): { file: string; includeArgs: boolean } {
  const parsed = v.safeParse(OptionsSchema, input ?? {});
  if (!parsed.success) {
    throw optionsError(pluginName, OptionsSchema, parsed.issues[0]);
  }
  const { file = ".toolgate/audit.jsonl", includeArgs = true } = parsed.output;
  return { file: resolve(cwd, file), includeArgs };
}

/**
 * Writes each entry with `appendFileSync`, one line per call of `write`:
 * - order: a line is on disk before the next event is handled, so the file follows the event order
 *   even when concurrent calls interleave;
 * - crash safety: nothing waits in a buffer, so a crash or `process.exit` loses no line already logged,
 *   and no `on_session_end` flush is needed (a host that is never closed still has a complete log);
 * - sharing: each line is one `O_APPEND` write, so several hosts can append to the same file without
 *   tearing each other's lines (on a local filesystem).
 * The cost is one synchronous write per event, small next to running a tool.
 */
function createLineWriter(file: string, api: PluginApi): (entry: AuditEntry) => void {
  try {
    mkdirSync(dirname(file), { recursive: true });
  } catch (error) {
    throw new Error(`${pluginName}: option "file": cannot create the folder for ${file}: ${describe(error)}`);
  }
  let failing = false;
  return (entry) => {
    try {
      appendFileSync(file, `${serialize(entry)}\n`);
      failing = false;
    } catch (error) {
      // Report once per run of failures, not once per call; the call itself goes on either way.
      if (!failing) api.log.error(`${pluginName}: cannot append to ${file}: ${describe(error)} (lines are lost until writing works again)`);
      failing = true;
    }
  };
}

/** JSON of the entry; arguments that JSON cannot hold (a BigInt, a cycle) are replaced by a note, never the line. */
function serialize(entry: AuditEntry): string {
  try {
    return JSON.stringify(entry);
  } catch (error) {
    return JSON.stringify({ ...entry, args: `[not serializable: ${describe(error)}]` });
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
