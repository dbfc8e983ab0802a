import type { HostEvents } from "@toolgate/host";

/** A plugin source (as module text) whose hooks count their calls per call id on globalThis. */
export function countingPluginSource(name: string, extra = ""): string {
  return `
export default {
  name: ${JSON.stringify(name)},
  hooks: {
    pre_tool_call(call) {
      const counts = (globalThis.__toolgateCounts ??= {});
      const key = ${JSON.stringify(name)} + ":" + call.id;
      counts[key] = (counts[key] ?? 0) + 1;
      ${extra}
    },
  },
};
`;
}

/** Collects every event a host emits, in order. */
export function recordEvents(events: { on(type: "*", listener: (type: keyof HostEvents, payload: unknown) => void): void }) {
  const seen: { type: keyof HostEvents; payload: any }[] = [];
  events.on("*", (type, payload) => seen.push({ type, payload }));
  return seen;
}
