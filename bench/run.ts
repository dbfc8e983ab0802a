/**
 * `pnpm bench` (after building the packages): measures the built `dist/`, the code users install. The
 * resolve hook goes in before anything imports `@toolgate/*`, and the files actually measured are printed.
 */
import { register } from "node:module";
import { sep } from "node:path";
import { fileURLToPath } from "node:url";

register("./published-exports.mjs", import.meta.url);

const measured = ["@toolgate/host", "@toolgate/plugin-sdk", "@toolgate/cedar", "@toolgate/cel"].map((name) => fileURLToPath(import.meta.resolve(name)));
const notBuilt = measured.filter((file) => !file.includes(`${sep}dist${sep}`));
if (notBuilt.length > 0) throw new Error(`the benchmark must run the built packages, not ${notBuilt.join(", ")}`);

const { runBenchmarks } = await import("./gate.bench.js");
await runBenchmarks({ quick: process.argv.includes("--quick"), measured });
const { printPolicyHookRows } = await import("./cel-cedar-table.js");
await printPolicyHookRows(process.argv.includes("--quick"));
const { runSandboxBench } = await import("./sandbox.bench.js");
runSandboxBench(process.argv.includes("--quick") ? 10 : 60);
