import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    exclude: ["**/node_modules/**", "**/dist/**", "test/fixtures/**", "test/.tmp/**"],
    include: ["packages/*/src/**/*.test.ts", "plugins/*/src/**/*.test.ts", "plugins/*/test/**/*.test.ts", "test/**/*.test.ts"],
    typecheck: { enabled: true, include: ["packages/*/src/**/*.test-d.ts"], tsconfig: "./tsconfig.json" },
    // A deadline for a hang, never a speed check: tests that start real processes (the CLI through tsx,
    // servers, agents) pass in a few seconds on an idle machine, and took 20 to 60 s on a loaded 2-core one.
    testTimeout: 120_000,
    // beforeAll hooks start real servers, CLIs and a browser; with the suite on both cores, vitest's 10 s default fell short once in CI.
    hookTimeout: 60_000,
  },
});
