/**
 * Runs inside a plugin's worker thread: loads the plugin with the host's own loader (jiti, factory,
 * validation), describes it to the host, then runs the hooks and tools the host asks for.
 */
import type { HookContext, PluginApi, PluginStore, PluginLogger, SessionInfo, ToolContext } from "@toolgate/plugin-sdk";
import { isHookName, isPlainObject } from "@toolgate/plugin-sdk/host";
import { parentPort, workerData } from "node:worker_threads";
import { ToolgateError } from "../errors.js";
import { describeSafely } from "./describe-safely.js";
import { instantiatePlugin } from "../loading/instantiate-plugin.js";
import { loadPluginModule } from "../loading/load-module.js";
import { validatePlugin, type PluginSnapshot } from "../validation/validate-plugin.js";
import { HookDeadlines } from "../invocation/hook-deadlines.js";
import {
  storeOperations,
  type HostEventMessage,
  type HostMessage,
  type HostRequest,
  type LogLevel,
  type PluginDescription,
  type StoreAnswer,
  type StoreOperation,
  type ToolDescription,
  type WorkerBoot,
  type WorkerMessage,
} from "./protocol.js";

// What plugin code prints goes where the host's logs go: the host's stdout may carry a protocol (hook, mcp-proxy).
process.stdout.write = process.stderr.write.bind(process.stderr) as typeof process.stdout.write;

const boot = workerData as WorkerBoot;
const port = parentPort!;
// The host terminates this thread instead of signalling it, so a hook's signal never fires in here.
const signal = new AbortController().signal;
const session = Object.freeze(boot.session);

function send(message: WorkerMessage): void {
  port.postMessage(message);
}

function createLogger(): PluginLogger {
  const write =
    (level: LogLevel) =>
    (message: string, ...details: unknown[]) => {
      try {
        send({ type: "log", level, message: String(message), details });
      } catch {
        send({ type: "log", level, message: String(message), details: details.map((detail) => describeSafely(detail)) });
      }
    };
  return { debug: write("debug"), info: write("info"), warn: write("warn"), error: write("error") };
}

const log = createLogger();

type Listener = (...args: unknown[]) => void;
const listeners = new Map<string, Set<Listener>>();

/** Host events reach the worker as messages: the first listener for an event asks the host to forward it. */
function subscribe(event: string, listener: Listener): () => void {
  let set = listeners.get(event);
  if (!set) {
    listeners.set(event, (set = new Set()));
    send({ type: "subscribe", event });
  }
  set.add(listener);
  return () => {
    set.delete(listener);
  };
}

function dispatch(message: HostEventMessage): void {
  for (const listener of [...(listeners.get(message.event) ?? [])]) {
    try {
      listener(...message.args);
    } catch (error) {
      log.warn(`a listener for "${message.event}" threw: ${describeSafely(error)}`);
    }
  }
}

const storeRequests = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
let nextStoreRequest = 0;

/** The plugin's store lives in the host: each operation is a request there, answered with `store-answer`. */
function askStore(operation: StoreOperation, args: unknown[]): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const id = nextStoreRequest++;
    storeRequests.set(id, { resolve, reject });
    try {
      send({ type: "store", id, operation, args });
    } catch (error) {
      storeRequests.delete(id);
      reject(new TypeError(`api.store.${operation}: its arguments cannot cross to the host (${describeSafely(error)})`));
    }
  });
}

function answerStore(message: StoreAnswer): void {
  const request = storeRequests.get(message.id);
  if (!request) return;
  storeRequests.delete(message.id);
  if (message.ok) request.resolve(message.value);
  else request.reject(new Error(message.error));
}

const store = Object.fromEntries(storeOperations.map((operation) => [operation, (...args: unknown[]) => askStore(operation, args)])) as unknown as PluginStore;

const api: PluginApi = {
  cwd: boot.cwd,
  policyPaths: Object.freeze(boot.policyPaths),
  session,
  log,
  store,
  on: (event, listener) => subscribe(event, listener as Listener),
};

// Store answers can arrive while the factory runs, before the plugin is ready to serve calls.
port.on("message", (message: HostMessage) => message.type === "store-answer" && answerStore(message));

async function start(): Promise<void> {
  const loaded = await loadPluginModule(boot.path);
  if (!loaded.ok) return fail(loaded.error);
  send({ type: "imported" });
  const runtime = new HookDeadlines(boot.timeoutMs);
  const instance = await instantiatePlugin(loaded.value, { label: boot.path, path: boot.path, options: boot.options, api, runtime });
  if (!instance.ok) return fail(instance.error);
  const validation = validatePlugin(instance.value);
  if (!validation.ok) return fail(new ToolgateError("PLUGIN_INVALID", `not a valid plugin: ${validation.reason}`));
  const { plugin } = validation;
  try {
    send({ type: "ready", plugin: describePlugin(plugin, unknownHookNames(instance.value)) });
  } catch (error) {
    return fail(new ToolgateError("PLUGIN_INVALID", `not a valid plugin: its fields cannot cross the worker boundary (${describeSafely(error)})`));
  }
  port.on("message", (message: HostMessage) => {
    if (message.type === "event") dispatch(message);
    else if (message.type !== "store-answer") void serve(plugin, message);
  });
}

function fail(error: ToolgateError): void {
  send({ type: "failed", code: error.code, message: error.message });
}

/** Names in a plain `hooks` object that are not hooks: the stand-in keeps them so the host warns as in-process. */
function unknownHookNames(instance: unknown): string[] {
  const hooks = (instance as { hooks?: unknown }).hooks;
  return isPlainObject(hooks) ? Object.keys(hooks).filter((name) => !isHookName(name)) : [];
}

function describePlugin(plugin: PluginSnapshot, unknownHooks: string[]): PluginDescription {
  const hooks = [...plugin.hooks.map((binding) => binding.hook), ...unknownHooks];
  const description: PluginDescription = { name: plugin.name, hooks, tools: {} };
  if (plugin.version !== undefined) description.version = plugin.version;
  if (plugin.description !== undefined) description.description = plugin.description;
  if (plugin.order !== undefined) description.order = plugin.order;
  for (const [name, tool] of Object.entries(plugin.tools ?? {})) {
    const shown: ToolDescription = {};
    if (tool.description !== undefined) shown.description = tool.description;
    if (tool.parameters !== undefined) shown.parameters = tool.parameters;
    if (tool.kind !== undefined) shown.kind = tool.kind;
    description.tools[name] = shown;
  }
  return description;
}

async function serve(plugin: PluginSnapshot, message: HostRequest): Promise<void> {
  let value: unknown;
  try {
    value = message.type === "hook" ? await runHook(plugin, message) : await runTool(plugin, message);
  } catch (error) {
    return send({ type: "settled", id: message.id, ok: false, error: describeSafely(error) });
  }
  try {
    send({ type: "settled", id: message.id, ok: true, value });
  } catch (error) {
    send({ type: "settled", id: message.id, ok: false, error: `returned a value that cannot cross the worker boundary (${describeSafely(error)})` });
  }
}

function runHook(plugin: PluginSnapshot, message: Extract<HostRequest, { type: "hook" }>): unknown {
  const binding = plugin.hooks.find((candidate) => candidate.hook === message.hook)!;
  const ctx: HookContext = { plugin: plugin.name, session: sessionOf(message), signal, options: boot.options, log };
  // In-process hooks receive frozen arguments; the same code must see the same thing here.
  return binding.fn.call(binding.thisArg, ...message.args.map(deepFreeze), ctx);
}

function runTool(plugin: PluginSnapshot, message: Extract<HostRequest, { type: "tool" }>): unknown {
  const tool = plugin.tools![message.tool]!;
  const ctx: ToolContext = { call: deepFreeze(message.call), session: sessionOf(message), signal };
  return tool.execute(message.args, ctx);
}

function sessionOf(message: HostRequest): SessionInfo {
  return message.session === undefined ? session : deepFreeze(message.session);
}

function deepFreeze<T>(value: T): T {
  if (typeof value !== "object" || value === null || Object.isFrozen(value)) return value;
  // Frozen before its children are visited, so a cycle (structured clone keeps them) ends the walk.
  Object.freeze(value);
  for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
  return value;
}

void start();
