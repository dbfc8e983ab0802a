import type { HookName, PluginLogger, PluginOptions, PluginRecord, PolicySource, ToolDefinition } from "@toolgate/plugin-sdk";
import { hookNames } from "@toolgate/plugin-sdk/host";
import { pluginLabel, ToolgateError } from "../errors.js";
import type { HookInvocationContext } from "../invocation/hook-context.js";
import type { HookDeadlines } from "../invocation/hook-deadlines.js";
import type { HookCall } from "../invocation/run-hook.js";
import type { PluginSnapshot } from "../validation/validate-plugin.js";

/** A plugin that loaded and validated, with what the host needs to call it. */
export interface RegisteredPlugin {
  readonly plugin: PluginSnapshot;
  readonly options: PluginOptions;
  readonly record: PluginRecord;
  readonly log: PluginLogger;
  /** Who this participant is in verdicts; a configured hook sets its own. @default { kind: "plugin", name } */
  readonly source?: PolicySource;
  /** A configured hook's own timeout; plugins share the host's `hookTimeoutMs`. */
  readonly deadlines?: HookDeadlines;
  /** `shadow: true`: asked as usual, recorded, never part of the verdict (see `absorb.ts`). */
  readonly shadow?: boolean;
}

/** One plugin's implementation of one hook, ready for `runHook`. */
export interface HookEntry extends HookCall {
  readonly owner: RegisteredPlugin;
  /** Made once per plugin, so a verdict names its source without an allocation per call. */
  readonly source: PolicySource;
  readonly deadlines: HookDeadlines | undefined;
  readonly shadow: boolean;
  /**
   * The `ctx` the next invocation gets. A hook that returns at once hands it back for the next call
   * (nothing can abort it any more); one that goes async keeps it, and the next call gets a fresh one.
   */
  spareContext?: HookInvocationContext | undefined;
}

/** A tool the host can run, and the plugin that contributed it (none for the agent's own tools). */
export interface RegisteredTool {
  readonly definition: ToolDefinition;
  readonly contributedBy?: string;
}

/**
 * Plugins in run order (`order`, then name), each name once, with a table of hook implementations per
 * hook name, and the tools from the agent and the plugins.
 */
export class PluginRegistry {
  readonly #byName = new Map<string, RegisteredPlugin>();
  readonly #tools = new Map<string, RegisteredTool>();
  // Sorted and tabled once, on first use after the last add: adding n plugins stays linear.
  #ordered: RegisteredPlugin[] | undefined;
  // An object, not a Map: `hooks("pre_tool_call")` inlines to a property load, cheaper per call than a Map hash lookup.
  #hooks: Record<HookName, HookEntry[]> | undefined;

  constructor(agentTools: Record<string, ToolDefinition> = {}) {
    for (const [name, definition] of Object.entries(agentTools)) this.#tools.set(name, { definition });
  }

  /** Adds a plugin, or returns the error that rejects it (a name already taken). */
  add(candidate: RegisteredPlugin): ToolgateError | undefined {
    const { name } = candidate.plugin;
    const taken = this.#byName.get(name);
    if (taken) {
      const message = `duplicate plugin name "${name}": ${describeOrigin(candidate.record)} conflicts with ${describeOrigin(taken.record)}, which loaded first`;
      return new ToolgateError("PLUGIN_DUPLICATE", message, { plugin: name, path: candidate.record.path });
    }
    this.#byName.set(name, candidate);
    this.#ordered = undefined;
    this.#hooks = undefined;
    this.#addTools(candidate);
    return undefined;
  }

  /** The registered plugins in run order. */
  get plugins(): readonly RegisteredPlugin[] {
    if (this.#ordered === undefined) this.#ordered = [...this.#byName.values()].sort(compareRunOrder);
    return this.#ordered;
  }

  hooks(name: HookName): readonly HookEntry[] {
    if (this.#hooks === undefined) this.#hooks = this.#buildHooks();
    return this.#hooks[name];
  }

  tool(name: string): RegisteredTool | undefined {
    return this.#tools.get(name);
  }

  get toolNames(): string[] {
    return [...this.#tools.keys()];
  }

  #buildHooks(): Record<HookName, HookEntry[]> {
    const tables = {} as Record<HookName, HookEntry[]>;
    for (const name of hookNames) tables[name] = [];
    for (const owner of this.plugins) {
      const source = owner.source ?? Object.freeze({ kind: "plugin" as const, name: owner.plugin.name });
      const { deadlines } = owner;
      const shadow = owner.shadow === true;
      for (const { hook, fn, thisArg } of owner.plugin.hooks)
        if (Object.hasOwn(tables, hook))
          tables[hook].push({ owner, plugin: owner.plugin.name, path: owner.record.path, hook, fn, thisArg, source, deadlines, shadow });
    }
    return tables;
  }

  #addTools(owner: RegisteredPlugin): void {
    for (const [name, definition] of Object.entries(owner.plugin.tools)) {
      const existing = this.#tools.get(name);
      if (existing) {
        const holder = existing.contributedBy ? pluginLabel(existing.contributedBy) : "the agent's own tools";
        owner.record.warnings.push(`tool "${name}" is not registered: ${holder} already provide it`);
        continue;
      }
      this.#tools.set(name, { definition: { ...definition, kind: definition.kind ?? "plugin" }, contributedBy: owner.plugin.name });
    }
  }
}

function compareRunOrder(a: RegisteredPlugin, b: RegisteredPlugin): number {
  const byOrder = a.plugin.order - b.plugin.order;
  if (byOrder !== 0) return byOrder;
  return a.plugin.name < b.plugin.name ? -1 : a.plugin.name > b.plugin.name ? 1 : 0;
}

function describeOrigin(record: PluginRecord): string {
  return record.path ?? `an ${record.source} plugin`;
}
