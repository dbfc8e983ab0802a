import { defineConfig } from "@toolgate/host";
import base from "./toolgate.config.js";

// The operator's switch for act 2: the same policy, plus read-only-mode, which blocks every writing tool.
export default defineConfig({
  ...base,
  plugins: [...(base.plugins ?? []), "../plugins/read-only-mode"],
});
