#!/usr/bin/env node
// Plain JavaScript, run by Node.js 20 as shipped (no build). The command a shell call becomes with
// `network: { allow: [...] }`:
//   node network-runner.mjs --allow HOST… -- BWRAP BWRAP-OPTION… -- COMMAND…
// It starts the allow-listing proxy on a unix socket in a private folder, runs bubblewrap with that folder
// mounted inside and the bridge in front of the command (the sandbox's network stays unshared), passes the
// exit code and signals through, and removes the folder. It lives for the command: on a hook surface the hook
// process is gone before the agent runs the command, so nothing may rely on it. If the proxy cannot start, the
// command does not run.
import { spawn } from "node:child_process";
import { mkdtempSync, realpathSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { patternProblem } from "./allowed-hosts.mjs";
import { createAllowListProxy } from "./proxy.mjs";

/** Where the proxy's folder appears inside the sandbox (the sandbox's /tmp is a fresh tmpfs, so it can be mounted there). */
const insideFolder = "/tmp/.toolgate-network";
const bridge = fileURLToPath(new URL("./bridge.mjs", import.meta.url));
const loopbackNames = ["localhost", "127.0.0.1", "::1"];
const forwarded = ["SIGTERM", "SIGINT", "SIGHUP", "SIGQUIT"];
// Linux's limit on a unix socket's path (sun_path), less its final NUL.
const socketPathLimit = 107;

function fail(message) {
  process.stderr.write(`toolgate sandbox: ${message}; the command was not run\n`);
  process.exit(126);
}

/** `--allow HOST…` then `--`, bwrap and its options up to its `--`, then the command. */
function parseArguments(argv) {
  const allow = [];
  let index = 0;
  while (argv[index] === "--allow" && index + 1 < argv.length) {
    allow.push(argv[index + 1]);
    index += 2;
  }
  if (argv[index] !== "--") return { problem: `expected --allow HOST… -- BWRAP OPTION… -- COMMAND…, got ${JSON.stringify(argv[index] ?? "nothing")}` };
  const rest = argv.slice(index + 1);
  const end = rest.indexOf("--");
  if (rest.length === 0 || !rest[0].startsWith("/") || end < 1 || end === rest.length - 1)
    return { problem: "expected the absolute path of bwrap, its options, -- and a command" };
  for (const pattern of allow) {
    const problem = patternProblem(pattern);
    if (problem !== undefined) return { problem: `network.allow: ${problem}` };
  }
  return { allow, bwrap: rest[0], bwrapOptions: rest.slice(1, end), command: rest.slice(end + 1) };
}

function main() {
  const parsed = parseArguments(process.argv.slice(2));
  if ("problem" in parsed) fail(parsed.problem);
  let folder;
  try {
    folder = mkdtempSync(join(tmpdir(), "toolgate-net-"));
  } catch (error) {
    fail(`the network proxy for the allowed hosts could not start: no private folder in ${tmpdir()}: ${error.message}`);
  }
  const removeFolder = () => rmSync(folder, { recursive: true, force: true });
  const socket = join(folder, "proxy.sock");
  if (Buffer.byteLength(socket) > socketPathLimit) {
    removeFolder();
    fail(
      `the network proxy for the allowed hosts could not start: its socket path ${socket} is longer than ${socketPathLimit} bytes (set TMPDIR to a shorter folder)`,
    );
  }
  const proxy = createAllowListProxy(parsed.allow, (message) => process.stderr.write(`${message}\n`));
  proxy.server.once("error", (error) => {
    removeFolder();
    fail(`the network proxy for the allowed hosts could not start: ${error.message}`);
  });
  proxy.server.listen(socket, () => runContained(parsed, proxy, removeFolder, folder));
}

/**
 * Node and the bridge run inside the sandbox, mounted read-only at their own paths: the sandbox's private /tmp
 * (or a hidden folder) may cover where they live, as it does for a Node installed under /tmp.
 */
function ownFileMounts() {
  return [realpathSync(process.execPath), bridge].flatMap((path) => ["--ro-bind", path, path]);
}

function runContained({ allow, bwrap, bwrapOptions, command }, proxy, removeFolder, folder) {
  const noProxy = loopbackNames.filter((name) => !allow.includes(name)).join(",");
  const args = [
    ...bwrapOptions,
    ...ownFileMounts(),
    "--ro-bind",
    folder,
    insideFolder,
    "--",
    process.execPath,
    bridge,
    join(insideFolder, "proxy.sock"),
    noProxy,
    "--",
    ...command,
  ];
  const child = spawn(bwrap, args, { stdio: "inherit" });
  const relay = (signal) => child.kill(signal);
  for (const signal of forwarded) process.on(signal, relay);
  const finish = (code, signal) => {
    proxy.closeAll();
    proxy.server.close();
    removeFolder();
    for (const name of forwarded) process.off(name, relay);
    if (signal !== null && signal !== undefined) process.kill(process.pid, signal);
    else process.exit(code ?? 1);
  };
  child.once("error", (error) => {
    process.stderr.write(`toolgate sandbox: bubblewrap (${bwrap}) could not start: ${error.message}; the command was not run\n`);
    finish(126, null);
  });
  child.once("exit", finish);
}

main();
