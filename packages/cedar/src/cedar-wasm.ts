import { createRequire } from "node:module";

export type CedarWasm = typeof import("@cedar-policy/cedar-wasm/nodejs");
export type { DetailedError, PolicyJson, SchemaJson, TypeOfAttribute } from "@cedar-policy/cedar-wasm/nodejs";

let wasm: CedarWasm | undefined;

/**
 * The Node.js build of cedar-wasm. Its default (ESM) entry imports the `.wasm` file as a module, which
 * Node 20 cannot load without a flag (ERR_UNKNOWN_FILE_EXTENSION); the `./nodejs` entry is CommonJS
 * and reads the wasm with `fs.readFileSync` once, when first required.
 */
export function cedarWasm(): CedarWasm {
  wasm ??= createRequire(import.meta.url)("@cedar-policy/cedar-wasm/nodejs") as CedarWasm;
  return wasm;
}
