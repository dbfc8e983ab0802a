import { defineConfig } from "@toolgate/host";

// `pnpm toolgate …` in this repository runs the CLI on the example plugins in plugins/, each with the
// options it needs (budget has no default limit, so found in the folder alone it would fail to load and,
// with onPluginError "block", block every call). The demo has its own config (demo/toolgate.config.ts).
export default defineConfig({
  pluginsDir: false,
  plugins: [
    "./plugins/block-dangerous-shell",
    ["./plugins/budget", { limit: 1_000, periodMs: 86_400_000 }],
    ["./plugins/rate-limit", { max: 30, windowMs: 60_000 }],
    "./plugins/read-only-mode",
    "./plugins/audit-log",
  ],
});
