#!/usr/bin/env node
// The `toolgate` bin (dist/cli/main.cjs once bundled): runs the CLI's bundle, dist/cli/toolgate.cjs,
// with V8's code cache. Kept to Node's built-ins and this folder's code-cache.ts, so that it is
// small enough to compile on every start.
import { join } from "node:path";
import { userCacheDir } from "@toolgate/host/internal";
import { runWithCodeCache } from "./code-cache.js";

/** Set by scripts/bundle.mjs: a hash of toolgate.cjs. */
declare const TOOLGATE_BUNDLE_ID: string;

// `toolgate hook` starts once per tool call: its cache is its own, whichever command ran first.
const name = process.argv[2] === "hook" ? "cli-hook" : "cli";
runWithCodeCache(join(__dirname, "toolgate.cjs"), { cacheDir: userCacheDir(), name, buildId: TOOLGATE_BUNDLE_ID });
