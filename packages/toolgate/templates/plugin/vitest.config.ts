import { defineConfig } from "vitest/config";

// Only this plugin's tests, even when the folder sits inside a project with a vitest config of its own.
export default defineConfig({ test: { include: ["src/**/*.test.ts"] } });
