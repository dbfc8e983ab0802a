import {
  hookNames,
  isHookName,
  type HookName,
  type Plugin,
  type PluginLogger,
  type PluginOptions,
  type PluginRecord,
  type ToolDefinition,
} from "@toolgate/plugin-sdk";
import { pluginLabel, ToolgateError } from "../errors.js";
import type { HookCall } from "../gate/run-hook.js";

/** A plugin that loaded and validated, with what the host needs to call it. */
export interface RegisteredPlugin {
  readonly plugin: Plugin;
  readonly options: PluginOptions;
  readonly record: PluginRecord;
  readonly log: PluginLogger;
}

/** One plugin's implementation of one hook, ready for `runHook`. */
export interface HookEntry extends HookCall {
  readonly owner: RegisteredPlugin;
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
  readonly #plugins: RegisteredPlugin[] = [];
  readonly #hooks = new Map<HookName, HookEntry[]>();
  readonly #tools = new Map<string, RegisteredTool>();

  constructor(agentTools: Record<string, ToolDefinition> = {}) {
    for (const [name, definition] of Object.entries(agentTools)) this.#tools.set(name, { definition });
    for (const name of hookNames) this.#hooks.set(name, []);
  }

  /** Adds a plugin, or returns the error that rejects it (a name already taken). */
  add(candidate: RegisteredPlugin): ToolgateError | undefined {
    const { name } = candidate.plugin;
    const taken = this.#plugins.find((existing) => existing.plugin.name === name);
    if (taken) {
      const message = `duplicate plugin name "${name}": ${describeOrigin(candidate.record)} conflicts with ${describeOrigin(taken.record)}, which loaded first`;
      return new ToolgateError("PLUGIN_DUPLICATE", message, { plugin: name, path: candidate.record.path });
    }
    this.#plugins.push(candidate);
    this.#plugins.sort(compareRunOrder);
    this.#rebuildHooks();
    this.#addTools(candidate);
    return undefined;
  }

  get plugins(): readonly RegisteredPlugin[] {
    return this.#plugins;
  }

  hooks(name: HookName): readonly HookEntry[] {
    return this.#hooks.get(name) ?? [];
  }

  tool(name: string): RegisteredTool | undefined {
    return this.#tools.get(name);
  }

  get toolNames(): string[] {
    return [...this.#tools.keys()];
  }

  #rebuildHooks(): void {
    for (const name of hookNames) this.#hooks.set(name, []);
    for (const owner of this.#plugins) {
      const hooks = owner.plugin.hooks ?? {};
      for (const [hook, fn] of Object.entries(hooks)) {
        if (!isHookName(hook) || typeof fn !== "function") continue;
        const entry: HookEntry = { owner, plugin: owner.plugin.name, path: owner.record.path, hook, fn: fn as HookCall["fn"], thisArg: hooks };
        this.#hooks.get(hook)?.push(entry);
      }
    }
  }

  #addTools(owner: RegisteredPlugin): void {
    for (const [name, definition] of Object.entries(owner.plugin.tools ?? {})) {
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
  const byOrder = (a.plugin.order ?? 0) - (b.plugin.order ?? 0);
  if (byOrder !== 0) return byOrder;
  return a.plugin.name < b.plugin.name ? -1 : a.plugin.name > b.plugin.name ? 1 : 0;
}

function describeOrigin(record: PluginRecord): string {
  return record.path ?? `an ${record.source} plugin`;
}
