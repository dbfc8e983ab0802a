import { defineConfig } from "@toolgate/host";

// The demo's policy, as an operator would write it. The list is explicit (`pluginsDir: false`) rather
// than "every plugin in ../plugins": options belong next to each plugin, and read-only-mode lives in
// that folder too but only enters in act 2 (read-only.config.ts). Paths resolve from this file's folder.
export default defineConfig({
  pluginsDir: false,
  plugins: [
    "../plugins/block-dangerous-shell",
    // Tight enough that a burst of five searches runs into it.
    ["../plugins/rate-limit", { max: 3, windowMs: 60_000 }],
    // Writes .toolgate/audit.jsonl under the host's cwd: the demo's throwaway project folder.
    "../plugins/audit-log",
  ],
  session: { user: "demo-user" },
});
