import { isPlainObject } from "@toolgate/plugin-sdk/host";
import type { AgentName, AgentSettings } from "./agent-protocol.js";

interface CommandHook {
  type: "command";
  command: string;
}

interface MatcherGroup {
  matcher?: string;
  hooks: unknown[];
}

/** A command `toolgate init` wrote for `agent`, wherever the CLI was installed then. */
export function isToolgateCommand(command: unknown, agent: AgentName): command is string {
  return typeof command === "string" && new RegExp(`(toolgate|cli[\\\\/]main\\.[cm]?[jt]s).* hook ${agent}( \\|\\| .*)?$`).test(command.trim());
}

/**
 * The settings shape Claude Code, Gemini CLI and Codex share:
 * `{ hooks: { <Event>: [{ matcher, hooks: [{ type: "command", command }] }] } }`.
 */
export function matcherGroupSettings(options: { agent: AgentName; file: string; events: readonly string[]; matcher?: string }): AgentSettings {
  const { agent, events } = options;
  const ownGroup = (command: string): MatcherGroup => {
    const hook: CommandHook = { type: "command", command };
    return options.matcher === undefined ? { hooks: [hook] } : { matcher: options.matcher, hooks: [hook] };
  };
  return {
    file: options.file,
    install(document, command) {
      const hooks = isPlainObject(document.hooks) ? { ...(document.hooks as Record<string, unknown>) } : {};
      for (const event of events) hooks[event] = [...withoutToolgate(hooks[event], agent), ownGroup(command)];
      return { ...document, hooks };
    },
    installedCommands(document) {
      const hooks = isPlainObject(document.hooks) ? (document.hooks as Record<string, unknown>) : {};
      return events.flatMap((event) => commandsIn(hooks[event]).filter((command) => isToolgateCommand(command, agent)));
    },
  };
}

function groupsOf(value: unknown): MatcherGroup[] {
  return Array.isArray(value) ? value.filter((group): group is MatcherGroup => isPlainObject(group) && Array.isArray(group.hooks)) : [];
}

function commandsIn(value: unknown): string[] {
  return groupsOf(value).flatMap((group) =>
    group.hooks.map((hook) => (isPlainObject(hook) ? hook.command : undefined)).filter((command): command is string => typeof command === "string"),
  );
}

/** The event's groups with toolgate's hooks taken out; a group left empty goes, anything else stays as it was. */
function withoutToolgate(value: unknown, agent: AgentName): unknown[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((group: unknown) => {
    if (!isPlainObject(group) || !Array.isArray(group.hooks)) return [group];
    const kept = group.hooks.filter((hook: unknown) => !(isPlainObject(hook) && isToolgateCommand(hook.command, agent)));
    if (kept.length === group.hooks.length) return [group];
    return kept.length === 0 ? [] : [{ ...group, hooks: kept }];
  });
}
