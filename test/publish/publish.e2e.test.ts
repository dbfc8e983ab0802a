// The publish story, end to end, against a real npm registry on 127.0.0.1 (Verdaccio): pack the
// packages as a release does (`pnpm pack`: build, publishConfig, workspace: ranges replaced), `npm
// publish` the tarballs in dependency order, then fresh projects outside the workspace install them
// with plain `npm install`:
// - an app (`toolgate`, `@toolgate/host`, a plugin, `@toolgate/model-hooks` next to its own ai@6,
//   `@toolgate/cedar`, `@toolgate/cel`) reaches the CLI the way users do, through `npx`, which loads
//   the plugin (`list`, `check`), blocks with it (`run`, `hook claude-code`), also in a worker; has one
//   `ai`, which a model hook runs through against a fake OpenAI-compatible server; decides with Cedar
//   and CEL policies; and takes an author's plugin from `toolgate new` to `npm publish` to `toolgate
//   add`. The AI SDK adapter's example compiles and blocks too.
// - a project that installs only `@toolgate/host` stays small (a counted budget); with the CLI added
//   and no optional package installed, a model hook, a Redis store and Cedar and CEL hooks fail closed,
//   on the library and the CLI, with the `npm install …` line that fixes them.
// @toolgate/*, toolgate and toolgate-plugin-* come only from the local registry; for everything else it
// redirects npm to the registry this machine's npm uses. Servers and folders are removed even when a step fails.
// The budgets hold on a loaded 2-core machine (other test files, or other work, on both cores): there
// packing the 8 packages alone (a build each) took 6 minutes, an npm install 40 s, an npm publish 15 s.
import { createServer, type Server } from "node:http";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { packPackage, publishablePackages, type Manifest, type PackedPackage } from "../../scripts/lib/workspace-packages.js";
import { startLocalRegistry, type LocalRegistry } from "./local-registry.js";
import { machineRegistry, mustRun, runCommand, type CommandResult } from "./npm.js";

const pluginName = "toolgate-plugin-block-dangerous-shell";
const published = [
  "@toolgate/plugin-sdk",
  "@toolgate/shell",
  "@toolgate/host",
  "@toolgate/model-hooks",
  "@toolgate/store-redis",
  "@toolgate/cedar",
  "@toolgate/cel",
  "toolgate",
  "@toolgate/ai-sdk",
  pluginName,
];
/** What the app installs from the local registry (the rest of its tree comes through the proxy). */
const appInstalls = ["toolgate", "@toolgate/host", "@toolgate/ai-sdk", "@toolgate/model-hooks", "@toolgate/cedar", "@toolgate/cel", pluginName];
/**
 * What `npm install @toolgate/host` may bring at most: the host, the SDK, the shell reader and the
 * core's own dependencies (valibot, mitt, fastest-levenshtein, jiti, picomatch, yaml). Measured on
 * 2026-11-27: 9 packages, 4.9 MB on disk.
 */
const libraryBudget = { packages: 12, megabytes: 6 };
const modelHooksInstall = "npm install @toolgate/model-hooks ai";
const storeRedisInstall = "npm install @toolgate/store-redis";
const cedarInstall = "npm install @toolgate/cedar";
const celInstall = "npm install @toolgate/cel";
/** The workspace's own TypeScript compiles the adapter examples, so the fresh project need not install it. */
const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
const examples = join(dirname(new URL(import.meta.url).pathname), "../fixtures/adapter-examples");

interface CheckReport {
  ok: boolean;
  plugins: { name: string; status: string; source: string }[];
}

interface HookAnswer {
  hookSpecificOutput?: { hookEventName?: string; permissionDecision?: string; permissionDecisionReason?: string };
}

/**
 * Asks the installed library about one call: `node gate.mjs <cwd> <tool> '<args JSON>'` prints the
 * verdict on its last line (the AI SDK prints its warnings on stdout before it).
 */
const gateScript = `
import { createHost } from "@toolgate/host";
const [cwd, name, args] = process.argv.slice(2);
const host = await createHost({ cwd, logger: false });
const verdict = await host.checkToolCall({ name, args: JSON.parse(args) });
await host.close();
console.log(JSON.stringify(verdict));
`;

// Every step runs real npm, npx and node processes: 47 s for one test on a loaded machine.
describe("publishing to an npm registry and installing from it", { timeout: 180_000 }, () => {
  let work = "";
  let consumer = "";
  let library = "";
  let libraryFootprint = { packages: 0, bytes: 0, names: [] as string[] };
  let registry: LocalRegistry | undefined;
  const packed: PackedPackage[] = [];

  // npm asks the local registry only (which redirects it for what is not ours), with its token; the machine's user config is not read.
  const npmFlags = () => ["--registry", registry!.url, "--userconfig", registry!.npmrc, "--no-audit", "--no-fund"];
  const npm = (args: string[], cwd: string) => mustRun("npm", [...args, ...npmFlags()], { cwd, timeoutMs: 300_000 });
  // The CLI as a user reaches it: `npx` from the project, which must find the installed bin and
  // never fetch (`--no`, and npm_config_yes=false); were it to try, only the local registry answers.
  const npmEnv = () => ({ npm_config_registry: registry!.url, npm_config_userconfig: registry!.npmrc, npm_config_yes: "false" });
  const npx = (cwd: string, args: string[], options: { env?: NodeJS.ProcessEnv; input?: string } = {}): Promise<CommandResult> =>
    runCommand("npx", ["--no", "--", "toolgate", ...args], { cwd, env: { ...npmEnv(), ...options.env }, input: options.input ?? "", timeoutMs: 150_000 });
  const toolgate = (args: string[], env: NodeJS.ProcessEnv = {}) => npx(consumer, args, { env });
  const gate = async (project: string, cwd: string, tool: string, args: Record<string, unknown>) =>
    JSON.parse(lastLine((await mustRun(process.execPath, ["gate.mjs", cwd, tool, JSON.stringify(args)], { cwd: project })).stdout)) as {
      action: string;
      message?: string;
      source?: { kind: string; name: string };
    };
  const preToolUse = (cwd: string, command: string) =>
    JSON.stringify({
      session_id: "publish-e2e",
      transcript_path: join(cwd, "transcript.jsonl"),
      cwd,
      hook_event_name: "PreToolUse",
      tool_name: "Bash",
      tool_input: { command },
      tool_use_id: `toolu_${command.length}`,
    });
  const hook = (cwd: string, command: string) => npx(cwd, ["hook", "claude-code"], { input: preToolUse(cwd, command), env: { CLAUDE_PROJECT_DIR: cwd } });

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), "toolgate-publish-"));
    const packages = publishablePackages().filter((pkg) => published.includes(pkg.manifest.name));
    expect(packages.map((pkg) => pkg.manifest.name).sort()).toEqual([...published].sort());
    for (const pkg of packages) packed.push(await packPackage(pkg, join(work, "tarballs")));
    registry = await startLocalRegistry(join(work, "registry"), await machineRegistry());
    // In publishablePackages' order, which puts every package after the workspace packages it names.
    for (const tarball of packed) await npm(["publish", tarball.tarball, "--access", "public", "--tag", "latest"], work);

    consumer = join(work, "consumer");
    library = join(work, "library");
    writeFiles(consumer, { "package.json": projectManifest("toolgate-consumer"), "gate.mjs": gateScript });
    writeFiles(library, { "package.json": projectManifest("toolgate-library-user"), "gate.mjs": gateScript });
    await Promise.all([
      // The adapter's framework and the app's ai@6 come from upstream through the registry's proxy, as a user's would.
      npm(["install", ...appInstalls, "ai@^6", "zod@^4", "--loglevel", "error"], consumer),
      (async () => {
        await npm(["install", "@toolgate/host", "--loglevel", "error"], library);
        libraryFootprint = installedFootprint(library);
        // Then the CLI beside it, still without either optional package.
        await npm(["install", "toolgate", "--loglevel", "error"], library);
      })(),
    ]);
    writeFiles(consumer, {
      "toolgate.config.mjs": `import { defineConfig } from "@toolgate/host";\n\nexport default defineConfig({ plugins: [${JSON.stringify(pluginName)}] });\n`,
      "calls.jsonl": [
        { id: "1", name: "terminal", args: { command: "rm -rf /" } },
        { id: "2", name: "terminal", args: { command: "ls -la" } },
      ]
        .map((call) => JSON.stringify(call))
        .join("\n"),
    });
  }, 900_000);

  afterAll(async () => {
    await registry?.stop();
    if (work) rmSync(work, { recursive: true, force: true });
  }, 120_000);

  it("publishes every package after the workspace packages it depends on", () => {
    const order = packed.map(({ packedManifest }) => packedManifest.name);
    for (const { packedManifest } of packed) {
      for (const dependency of workspaceDependencies(packedManifest, published)) {
        expect(order.indexOf(dependency), `${dependency} before ${packedManifest.name}`).toBeLessThan(order.indexOf(packedManifest.name));
      }
    }
  });

  it("installs the published packages from the local registry, not from upstream", () => {
    const lock = JSON.parse(readFileSync(join(consumer, "package-lock.json"), "utf8")) as {
      packages: Record<string, { version?: string; resolved?: string }>;
    };
    const ours = Object.keys(lock.packages).filter((path) => /(^|\/)node_modules\/(toolgate|@toolgate\/[^/]+|toolgate-plugin-[^/]+)$/.test(path));
    expect(ours.map((path) => path.replace(/^.*node_modules\//, ""))).toEqual(
      expect.arrayContaining([...appInstalls, "@toolgate/plugin-sdk", "@toolgate/shell"]),
    );
    expect(ours.map((path) => path.replace(/^.*node_modules\//, ""))).not.toContain("@toolgate/store-redis");
    for (const path of ours) {
      const entry = lock.packages[path]!;
      const name = path.replace(/^.*node_modules\//, "");
      expect(entry.version, name).toBe(packed.find(({ packedManifest }) => packedManifest.name === name)?.packedManifest.version);
      expect(entry.resolved?.startsWith(registry!.url), `${name} from ${entry.resolved}`).toBe(true);
    }
  });

  it(`npm install @toolgate/host brings at most ${libraryBudget.packages} packages and ${libraryBudget.megabytes} MB`, () => {
    const megabytes = libraryFootprint.bytes / 1024 / 1024;
    console.log(`npm install @toolgate/host: ${libraryFootprint.packages} packages, ${megabytes.toFixed(1)} MB (${libraryFootprint.names.join(", ")})`);
    expect(libraryFootprint.names).toEqual(expect.arrayContaining(["@toolgate/host", "@toolgate/plugin-sdk", "@toolgate/shell"]));
    expect(libraryFootprint.names.filter((name) => /^(ai|@ai-sdk\/.*|ioredis|@modelcontextprotocol\/sdk|commander|magicast|toolgate)$/.test(name))).toEqual([]);
    expect(libraryFootprint.packages).toBeLessThanOrEqual(libraryBudget.packages);
    expect(megabytes).toBeLessThanOrEqual(libraryBudget.megabytes);
  });

  it("npx toolgate list and check load the plugin named in toolgate.config.mjs", async () => {
    const list = await toolgate(["list"]);
    expect(list.code, list.stderr).toBe(0);
    expect(list.stdout).toContain("block-dangerous-shell");

    const result = await toolgate(["check", "--json"]);
    expect(result.code, result.stderr).toBe(0);
    const report = JSON.parse(result.stdout) as CheckReport;
    expect(report.ok).toBe(true);
    expect(report.plugins).toContainEqual(expect.objectContaining({ name: "block-dangerous-shell", status: "loaded", source: "npm" }));
  });

  it("npx toolgate run blocks rm -rf / with the plugin and lets ls run", async () => {
    const result = await toolgate(["run", "calls.jsonl", "--json"]);
    expect(result.code, result.stderr).toBe(0);
    const outcomes = result.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as { call: { id: string }; verdict: { action: string; plugin?: string } });
    expect(outcomes.map(({ call, verdict }) => [call.id, verdict.action, verdict.plugin])).toEqual([
      ["1", "block", "block-dangerous-shell"],
      ["2", "allow", undefined],
    ]);

    const human = await toolgate(["run", "calls.jsonl"]);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toMatch(/BLOCK by block-dangerous-shell/);
  });

  it("npx toolgate hook claude-code denies rm -rf / with the plugin's reason and allows ls", async () => {
    const denied = await hook(consumer, "rm -rf /");
    expect(denied.code, denied.stderr).toBe(2);
    expect(denied.stderr).toMatch(/block-dangerous-shell/);
    expect((JSON.parse(denied.stdout) as HookAnswer).hookSpecificOutput?.permissionDecision).toBe("deny");

    const allowed = await hook(consumer, "ls -la");
    expect(allowed.code, allowed.stderr).toBe(0);
    expect((JSON.parse(allowed.stdout || "{}") as HookAnswer).hookSpecificOutput?.permissionDecision ?? "allow").toBe("allow");
  });

  it("the installed CLI runs a plugin in a worker thread (isolation: worker) from its own bundle", async () => {
    writeFiles(join(consumer, "isolated"), {
      "toolgate.config.mjs": `export default { plugins: [[${JSON.stringify(pluginName)}, {}, { isolation: "worker" }]] };\n`,
    });
    const result = await toolgate(["run", "calls.jsonl", "--json", "--cwd", join(consumer, "isolated")]);
    expect(result.code, result.stderr).toBe(0);
    const verdicts = result.stdout
      .trim()
      .split("\n")
      .map((line) => (JSON.parse(line) as { verdict: { action: string; plugin?: string } }).verdict);
    expect(verdicts.map(({ action, plugin }) => [action, plugin])).toEqual([
      ["block", "block-dangerous-shell"],
      ["allow", undefined],
    ]);
  });

  it("an app on ai@6 has one ai, and a model hook runs through it against an OpenAI-compatible server", async () => {
    const parseable = await npm(["ls", "ai", "--all", "--parseable"], consumer);
    const copies = parseable.stdout.trim().split("\n").filter(Boolean);
    expect(copies).toEqual([join(consumer, "node_modules", "ai")]);
    const ai = JSON.parse(readFileSync(join(consumer, "node_modules", "ai", "package.json"), "utf8")) as Manifest;
    expect(ai.version).toMatch(/^6\./);

    const judge = await startFakeJudge();
    try {
      const judged = join(consumer, "judged");
      writeFiles(judged, {
        "toolgate.config.mjs": `export default ${JSON.stringify({
          pluginsDir: false,
          hooks: { pre_tool_call: [{ type: "model", model: "judge:fake-1", baseURL: `${judge.url}/v1` }] },
        })};\n`,
      });
      const blocked = await gate(consumer, judged, "terminal", { command: "rm -rf /" });
      expect(blocked).toMatchObject({ action: "block", source: { kind: "model" } });
      expect(blocked.message).toContain("the fake judge says no");
      const allowed = await gate(consumer, judged, "terminal", { command: "ls -la" });
      expect(allowed.action).toBe("allow");

      // The AI SDK logs on stdout (console.info); in the hook, stdout still carries only the answer.
      const denied = await hook(judged, "rm -rf /");
      expect(denied.code, denied.stderr).toBe(2);
      expect(denied.stderr).toContain("the fake judge says no");
      expect((JSON.parse(denied.stdout) as HookAnswer).hookSpecificOutput).toMatchObject({ permissionDecision: "deny" });

      // Every decision came from the server: the prompts carried the calls, in order.
      expect(judge.prompts.map((prompt) => (prompt.includes("rm -rf /") ? "rm" : prompt.includes("ls -la") ? "ls" : "?"))).toEqual(["rm", "ls", "rm"]);
    } finally {
      await judge.close();
    }
  });

  it("a model hook without @toolgate/model-hooks fails closed with the npm install line, on every surface", async () => {
    const project = join(library, "model");
    writeFiles(project, {
      "toolgate.config.mjs": `export default ${JSON.stringify({ pluginsDir: false, hooks: { pre_tool_call: [{ type: "model", model: "openai:gpt-x" }] } })};\n`,
    });
    const verdict = await gate(library, project, "terminal", { command: "ls" });
    expect(verdict.action).toBe("block");
    expect(verdict.message).toContain(modelHooksInstall);

    const denied = await hook(project, "ls");
    expect(denied.code, denied.stdout).toBe(2);
    expect(denied.stderr).toContain(modelHooksInstall);
    expect((JSON.parse(denied.stdout) as HookAnswer).hookSpecificOutput).toMatchObject({ permissionDecision: "deny" });

    const explained = await npx(project, ["explain", "terminal", JSON.stringify({ command: "ls" })]);
    expect(explained.stdout).toMatch(/BLOCK/);
    expect(explained.stdout).toContain(modelHooksInstall);

    // check and doctor say so too, rather than "check passed" over a policy whose every call is denied.
    const check = await npx(project, ["check", "--json"]);
    expect(check.code, check.stdout + check.stderr).toBe(1);
    expect((JSON.parse(check.stdout) as { ok: boolean; problems: string[] }).problems.join("\n")).toContain(
      `@toolgate/model-hooks, which is not installed: run \`${modelHooksInstall}\``,
    );
    const doctor = await npx(project, ["doctor", "--json"]);
    expect(doctor.code, doctor.stdout + doctor.stderr).toBe(1);
    const diagnosis = JSON.parse(doctor.stdout) as { ok: boolean; project: { problem: string | null } };
    expect(diagnosis.ok).toBe(false);
    expect(diagnosis.project.problem).toContain(modelHooksInstall);
  });

  it("the installed @toolgate/cedar and @toolgate/cel decide, in the library and through npx toolgate hook claude-code", async () => {
    const project = join(consumer, "languages");
    writeFiles(project, {
      "toolgate.config.mjs": `export default ${JSON.stringify({
        pluginsDir: false,
        hooks: {
          pre_tool_call: [
            { type: "cedar", policies: "policies.cedar" },
            { type: "cel", rules: [{ expression: 'args.command.startsWith("curl ")', action: "block", message: "CEL: no curl" }] },
          ],
        },
      })};\n`,
      "policies.cedar": [
        '@message("Cedar: no root deletes")',
        'forbid(principal, action, resource) when { context.args has command && context.args.command like "rm -rf /*" };',
        '@message("Cedar: Claude Code does not push")',
        'forbid(principal == Agent::"claude-code", action == Action::"Bash", resource) when { context.args.command like "git push*" };',
        "",
      ].join("\n"),
    });
    const cedar = await gate(consumer, project, "Bash", { command: "rm -rf /" });
    expect(cedar).toMatchObject({ action: "block", message: "Cedar: no root deletes", source: { kind: "cedar" } });
    const cel = await gate(consumer, project, "Bash", { command: "curl example.com" });
    expect(cel).toMatchObject({ action: "block", message: "CEL: no curl", source: { kind: "cel" } });
    // The library names no agent: the principal is Agent::"unknown", and the push goes through.
    expect((await gate(consumer, project, "Bash", { command: "git push" })).action).toBe("allow");

    const pushed = await hook(project, "git push origin main");
    expect(pushed.code, pushed.stderr).toBe(2);
    expect(pushed.stderr).toContain("Cedar: Claude Code does not push");
    const listed = await hook(project, "ls -la");
    expect(listed.code, listed.stderr).toBe(0);
  });

  it("Cedar and CEL hooks without their packages fail closed with the npm install line, in the library and the hook", async () => {
    const languages = join(library, "languages");
    writeFiles(languages, {
      "cedar/toolgate.config.mjs": `export default ${JSON.stringify({ pluginsDir: false, hooks: { pre_tool_call: [{ type: "cedar", policies: "policies.cedar" }] } })};\n`,
      "cedar/policies.cedar": "permit(principal, action, resource);\n",
      "cel/toolgate.config.mjs": `export default ${JSON.stringify({ pluginsDir: false, hooks: { pre_tool_call: [{ type: "cel", rules: [{ expression: "false", action: "block" }] }] } })};\n`,
    });
    // A Cedar hook is compiled when the host loads: the library refuses to start, naming the package.
    const started = await runCommand(process.execPath, ["gate.mjs", join(languages, "cedar"), "terminal", JSON.stringify({ command: "ls" })], { cwd: library });
    expect(started.code).toBe(1);
    expect(started.stderr).toContain(cedarInstall);
    // A CEL hook loads and blocks every call it would decide, as a model hook does.
    const verdict = await gate(library, join(languages, "cel"), "terminal", { command: "ls" });
    expect(verdict.action).toBe("block");
    expect(verdict.message).toContain(celInstall);
    for (const [name, install] of [
      ["cedar", cedarInstall],
      ["cel", celInstall],
    ] as const) {
      const denied = await hook(join(languages, name), "ls");
      expect(denied.code, denied.stdout).toBe(2);
      expect(denied.stderr, name).toContain(install);
    }
  });

  it("a Redis store without @toolgate/store-redis blocks what a plugin with api.store judges, with the npm install line", async () => {
    const project = join(library, "redis");
    writeFiles(project, {
      "toolgate.config.mjs": `export default { store: "redis://127.0.0.1:1" };\n`,
      // A drop-in plugin that counts every call in the host's store.
      "plugins/counter.mjs": `export default (_options, api) => ({
  name: "counter",
  hooks: {
    async pre_tool_call(call) {
      await api.store.increment(call.name);
    },
  },
});
`,
    });
    const verdict = await gate(library, project, "terminal", { command: "ls" });
    expect(verdict.action).toBe("block");
    expect(verdict.message).toContain(storeRedisInstall);

    const denied = await hook(project, "ls");
    expect(denied.code, denied.stdout).toBe(2);
    expect(denied.stderr).toContain(storeRedisInstall);
  });

  it("the published @toolgate/host/testing harness runs the installed plugin in the installed host", async () => {
    writeFiles(consumer, {
      "harness.mjs": `
import { createTestHost } from "@toolgate/host/testing";
import plugin from ${JSON.stringify(pluginName)};
const testHost = await createTestHost(plugin, { tools: ["terminal"] });
const outcome = await testHost.call("terminal", { command: "rm -rf /" });
await testHost.close();
console.log(JSON.stringify({ status: outcome.result.status, executed: outcome.executed }));
`,
    });
    const result = await mustRun(process.execPath, ["harness.mjs"], { cwd: consumer });
    expect(JSON.parse(result.stdout)).toEqual({ status: "blocked", executed: false });
  });

  it("the @toolgate/ai-sdk example compiles under strict and blocks rm -rf / with the plugin's reason reaching the model", async () => {
    writeFiles(consumer, {
      "adapters/ai-sdk.ts": readFileSync(join(examples, "ai-sdk.ts"), "utf8"),
      "adapters/tsconfig.json": JSON.stringify({
        compilerOptions: {
          target: "ES2022",
          lib: ["ES2023", "DOM"],
          module: "NodeNext",
          moduleResolution: "NodeNext",
          strict: true,
          exactOptionalPropertyTypes: true,
          noUncheckedIndexedAccess: true,
          skipLibCheck: true,
          types: [],
          outDir: "dist",
        },
        include: ["ai-sdk.ts"],
      }),
    });
    await mustRun(process.execPath, [tsc, "-p", "adapters/tsconfig.json"], { cwd: consumer });
    const result = await mustRun(process.execPath, ["adapters/dist/ai-sdk.js"], { cwd: consumer });
    const outcome = JSON.parse(result.stdout) as { ran: string[]; read: string[]; text: string };
    expect(outcome.ran).toEqual(["ls"]);
    expect(outcome.read[0]).toMatch(/^execution-denied: Tool call blocked by plugin "block-dangerous-shell": /);
    expect(outcome.read[1]).toBe('text: "ran ls"');
    expect(outcome.text).toBe("done");
  });

  it("an author's plugin goes from toolgate new to npm publish, and toolgate add puts it in a user's config", async () => {
    const name = "toolgate-plugin-no-root-delete";
    const author = join(work, "author");
    const scaffold = await toolgate(["new", name, "--dir", author]);
    expect(scaffold.code, scaffold.stderr).toBe(0);
    const pluginDir = join(author, name);

    // The author's loop: install (the SDK and host come from the registry too), test with the harness.
    await npm(["install", "--loglevel", "error"], pluginDir);
    await mustRun("npm", ["test"], { cwd: pluginDir });

    // Publishing as scaffolded: exports already point at dist/, and prepack builds it.
    await npm(["publish"], pluginDir);
    const tarball = await npm(["pack", `${name}@latest`, "--dry-run", "--json"], work);
    const files = (JSON.parse(tarball.stdout) as { files: { path: string }[] }[])[0]!.files.map((file) => file.path);
    expect(files).toEqual(expect.arrayContaining(["package.json", "dist/index.js", "dist/index.d.ts"]));
    expect(files.filter((file) => file.startsWith("src/") || /\.test\./.test(file))).toEqual([]);

    // The user's side: `toolgate add` installs with the project's npm and edits toolgate.config.mjs.
    const add = await toolgate(["add", name]);
    expect(add.code, `${add.stdout}\n${add.stderr}`).toBe(0);
    expect(readFileSync(join(consumer, "toolgate.config.mjs"), "utf8")).toContain(name);

    const check = await toolgate(["check", "--json"]);
    expect(check.code, check.stderr).toBe(0);
    const report = JSON.parse(check.stdout) as CheckReport;
    expect(report.plugins.map((plugin) => [plugin.name, plugin.status])).toEqual(
      expect.arrayContaining([
        ["block-dangerous-shell", "loaded"],
        ["no-root-delete", "loaded"],
      ]),
    );
    // Two npm installs (the author's brings vitest and typescript), a vitest run, a build and a publish.
  }, 420_000);
});

function lastLine(text: string): string {
  return text.trim().split("\n").at(-1) ?? "";
}

function projectManifest(name: string): string {
  return JSON.stringify({ name, version: "1.0.0", private: true, type: "module" }, null, 2);
}

function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [path, content] of Object.entries(files)) {
    const target = join(dir, path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, content);
  }
}

/** The names among `candidates` that `manifest` depends on in any way (peers too: they must resolve when installed). */
function workspaceDependencies(manifest: Manifest, candidates: readonly string[]): string[] {
  const fields = ["dependencies", "peerDependencies", "optionalDependencies"] as const;
  const named = fields.flatMap((field) => Object.keys((manifest[field] as Record<string, string> | undefined) ?? {}));
  return candidates.filter((name) => named.includes(name));
}

/** The packages npm installed in `project` (its hidden lockfile), and the bytes under node_modules. */
function installedFootprint(project: string): { packages: number; bytes: number; names: string[] } {
  const lock = JSON.parse(readFileSync(join(project, "node_modules", ".package-lock.json"), "utf8")) as { packages: Record<string, unknown> };
  const names = Object.keys(lock.packages)
    .filter((path) => path.includes("node_modules/"))
    .map((path) => path.replace(/^.*node_modules\//, ""))
    .sort();
  return { packages: names.length, bytes: folderBytes(join(project, "node_modules")), names };
}

function folderBytes(dir: string): number {
  let total = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) total += folderBytes(path);
    else if (entry.isFile()) total += statSync(path).size;
  }
  return total;
}

interface FakeJudge {
  url: string;
  /** Each request's prompt, in order. */
  prompts: string[];
  close(): Promise<void>;
}

/**
 * An OpenAI-compatible chat-completions endpoint on 127.0.0.1 that judges like a model would: a prompt
 * mentioning `rm -rf` gets a deny, anything else an allow, as the JSON the host asks for.
 */
async function startFakeJudge(): Promise<FakeJudge> {
  const prompts: string[] = [];
  const server: Server = createServer((request, response) => {
    let body = "";
    request.setEncoding("utf8").on("data", (chunk: string) => (body += chunk));
    request.on("end", () => {
      if (request.method !== "POST" || !request.url?.endsWith("/chat/completions")) {
        response.writeHead(404).end();
        return;
      }
      const { messages, model } = JSON.parse(body) as { model: string; messages: { content: unknown }[] };
      const prompt = messages.map((message) => (typeof message.content === "string" ? message.content : JSON.stringify(message.content))).join("\n");
      prompts.push(prompt);
      const answer = prompt.includes("rm -rf")
        ? { decision: "deny", reason: "the fake judge says no" }
        : { decision: "allow", reason: "the fake judge sees no harm" };
      response.writeHead(200, { "content-type": "application/json" }).end(
        JSON.stringify({
          id: `chatcmpl-${prompts.length}`,
          object: "chat.completion",
          created: Math.floor(Date.now() / 1000),
          model,
          choices: [{ index: 0, message: { role: "assistant", content: JSON.stringify(answer) }, finish_reason: "stop" }],
          usage: { prompt_tokens: 10, completion_tokens: 10, total_tokens: 20 },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    prompts,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
