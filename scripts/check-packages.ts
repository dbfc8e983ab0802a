// Packs every publishable workspace package the way a release does (`pnpm pack`: prepack build,
// publishConfig applied, workspace: ranges replaced) and lints the tarball itself, not the source tree:
//   - contents: what a user needs (dist, README, LICENSE, package.json) and nothing else;
//   - publint: every message, suggestions included, counts as a problem;
//   - attw (--profile esm-only): types resolve for node16 (ESM) and bundler. The packages are ESM only
//     by contract, so `require()` from CommonJS (node16-cjs) and the pre-exports `node10` resolution are
//     not targets; every other attw problem fails the run.
// Then the footprint guard (issue #20: the library stays light): @toolgate/host's production dependencies
// must be on an allow-list, and its packed install with the SDK, `npm install`ed into a fresh project,
// must stay within a budget of packages and MB. The CLI's install is printed for information.
// Usage: pnpm check:packages [package-name …]   (exit 1 on any problem)
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { publint } from "publint";
import { formatMessage } from "publint/utils";
import { describeFootprint, listPackages, measureInstall, overBudget, unexpectedDependencies, type FootprintPolicy } from "./lib/footprint-guard.js";
import { packPackage, publishablePackages, workspaceRoot, type PackedPackage } from "./lib/workspace-packages.js";

const run = promisify(execFile);

/** Top-level entries every tarball may hold besides what `files` names (npm always adds these). */
const alwaysAllowed = new Set(["package.json", "README.md", "LICENSE"]);
/** Shipped as data, not code: `toolgate new` copies these files, template test and tsconfig included. */
const templateFolder = /^templates\//;
const forbidden: [RegExp, string][] = [
  [/(^|\/)(test|tests|__tests__|fixtures|__fixtures__)\//, "test or fixture folder"],
  [/\.(test|spec)(-d)?\.[cm]?[jt]sx?$/, "test file"],
  [/\.test-d\.d\.[cm]?ts$/, "type-test declaration"],
  [/(^|\/)src\/.*\.[cm]?tsx?$/, "TypeScript source (only dist ships)"],
  [/\.tsbuildinfo$/, "tsc build info"],
  [/(^|\/)tsconfig[^/]*\.json$/, "tsconfig"],
  [/\.map$/, "source map to sources that are not shipped"],
  [/(^|\/)\.[^/]+$/, "dotfile"],
];

/**
 * The library's footprint. The allow-list is what the core needs: the SDK and the shell reader, jiti
 * (TypeScript plugins), valibot (validation), mitt (events), picomatch (matchers and permission
 * globs), yaml (YAML configs), fastest-levenshtein ("did you mean"). The budget leaves a little
 * headroom over what was measured (2026-11-27, npm 11.19, Node 20, ext4: 9 packages, 6.7 MB on disk,
 * 5.1 MB of files; valibot, jiti and yaml are 1.4-1.9 MB each, the host itself 1.0 MB).
 */
const hostFootprint: FootprintPolicy = {
  name: "@toolgate/host",
  allowedDependencies: ["@toolgate/plugin-sdk", "@toolgate/shell", "fastest-levenshtein", "jiti", "mitt", "picomatch", "valibot", "yaml"],
  budget: { packages: 11, megabytesOnDisk: 8 },
};
/** Printed for information, without a budget: the CLI carries the MCP SDK and the commands' tools. */
const informationalInstalls = ["toolgate"];

async function main(): Promise<number> {
  const only = process.argv.slice(2);
  const packages = publishablePackages().filter((pkg) => only.length === 0 || only.includes(pkg.manifest.name));
  if (packages.length === 0) {
    console.error(`check:packages: no publishable package${only.length ? ` named ${only.join(", ")}` : ""}`);
    return 1;
  }
  const destination = mkdtempSync(join(tmpdir(), "toolgate-pack-"));
  const packedByName = new Map<string, PackedPackage>();
  let failures = 0;
  let footprintFailures = 0;
  try {
    for (const pkg of packages) {
      const label = `${pkg.manifest.name}@${pkg.manifest.version}`;
      let packed: PackedPackage;
      try {
        packed = await packPackage(pkg, destination);
      } catch (error) {
        failures++;
        console.error(`✗ ${label}: pnpm pack failed\n${indent(errorText(error))}`);
        continue;
      }
      packedByName.set(pkg.manifest.name, packed);
      const problems = [...checkContents(packed), ...(await runPublint(packed)), ...(await runAttw(packed))];
      if (problems.length === 0) {
        console.log(`✓ ${label}: ${packed.files.length} files, publint and attw clean`);
      } else {
        failures++;
        console.error(`✗ ${label}: ${problems.length} problem(s)\n${problems.map((problem) => indent(problem)).join("\n")}`);
      }
    }
    if (only.length === 0 || only.some((name) => name === "@toolgate/host" || name === "toolgate"))
      footprintFailures = await checkFootprints(packedByName, destination);
  } finally {
    rmSync(destination, { recursive: true, force: true });
  }
  const packageSummary = failures === 0 ? `${packages.length} packages clean` : `${failures} of ${packages.length} packages have problems`;
  const footprintSummary = footprintFailures === 0 ? "" : `, ${footprintFailures} footprint problem(s) in @toolgate/host`;
  console.log(`\ncheck:packages: ${packageSummary}${footprintSummary}`);
  return failures === 0 && footprintFailures === 0 ? 0 : 1;
}

/** The host's guard (dependencies, then its install against the budget), then the CLI's install for information. */
async function checkFootprints(packed: Map<string, PackedPackage>, workDir: string): Promise<number> {
  const { name, allowedDependencies, budget } = hostFootprint;
  const host = publishablePackages().find((pkg) => pkg.manifest.name === name);
  if (host === undefined) {
    console.error(`✗ ${name}: not found among the workspace packages`);
    return 1;
  }
  console.log("");
  const problems = unexpectedDependencies(host.manifest, allowedDependencies);
  let footprint: Awaited<ReturnType<typeof measureInstall>> | undefined;
  try {
    footprint = await measureInstall(name, packed, workDir);
    problems.push(...overBudget(footprint, budget));
  } catch (error) {
    problems.push(`could not measure its install: ${errorText(error)}`);
  }
  const measured = footprint === undefined ? "" : `${describeFootprint(footprint)}: ${listPackages(footprint)}`;
  const budgetText = `budget ${budget.packages} packages, ${budget.megabytesOnDisk} MB`;
  if (problems.length === 0) console.log(`✓ ${name} footprint: dependencies all allowed; npm install with the SDK: ${measured} (${budgetText})`);
  else console.error(`✗ ${name} footprint (${budgetText}): ${measured}\n${problems.map((problem) => indent(problem)).join("\n")}`);
  for (const other of informationalInstalls) {
    try {
      console.log(`ℹ ${other} (for information, no budget): npm install: ${describeFootprint(await measureInstall(other, packed, workDir))}`);
    } catch (error) {
      console.log(`ℹ ${other}: could not measure its install: ${errorText(error)}`);
    }
  }
  return problems.length;
}

function checkContents(packed: PackedPackage): string[] {
  const problems: string[] = [];
  const declared = (packed.manifest.files ?? []).map((entry) => entry.replace(/^\.\//, "").replace(/\/$/, ""));
  for (const file of packed.files) {
    const top = file.split("/")[0]!;
    if (!alwaysAllowed.has(top) && !declared.some((entry) => file === entry || file.startsWith(`${entry}/`)))
      problems.push(`contents: ${file} is not named in "files"`);
    if (templateFolder.test(file)) continue;
    for (const [pattern, what] of forbidden) if (pattern.test(file)) problems.push(`contents: ${file} is a ${what}`);
  }
  if (!packed.files.includes("README.md")) problems.push("contents: no README.md");
  if (!packed.files.some((file) => file.startsWith("dist/"))) problems.push("contents: no dist/ (did the prepack build run?)");
  const manifestText = JSON.stringify(packed.packedManifest);
  if (manifestText.includes("workspace:")) problems.push("package.json: a workspace: range survived packing");
  const { exports, main, types, bin, module } = packed.packedManifest;
  if (/(^|")(\.\/)?src\//.test(JSON.stringify({ exports, main, types, bin, module })))
    problems.push("package.json: still points into ./src (publishConfig not applied?)");
  for (const [name, path] of Object.entries(binEntries(packed))) {
    const file = path.replace(/^\.\//, "");
    if (!packed.files.includes(file)) problems.push(`bin "${name}": ${path} is not in the tarball`);
  }
  return problems;
}

function binEntries(packed: PackedPackage): Record<string, string> {
  const bin = packed.packedManifest.bin;
  if (bin === undefined) return {};
  return typeof bin === "string" ? { [packed.manifest.name.replace(/^@[^/]+\//, "")]: bin } : bin;
}

async function runPublint(packed: PackedPackage): Promise<string[]> {
  const bytes = readFileSync(packed.tarball);
  const tarball = bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
  const { messages, pkg } = await publint({ pack: { tarball }, level: "suggestion", strict: true });
  return messages.map((message) => `publint ${message.type} ${message.code}: ${formatMessage(message, pkg, { color: false }) ?? ""}`);
}

async function runAttw(packed: PackedPackage): Promise<string[]> {
  const attw = join(workspaceRoot, "node_modules", ".bin", "attw");
  // --no-definitely-typed: do not look up @types packages on the registry; ours ship their own types.
  const args = ["--profile", "esm-only", "--no-definitely-typed", "--no-emoji", "--no-color", "--format", "table-flipped", packed.tarball];
  try {
    await run(attw, args, { maxBuffer: 16 * 1024 * 1024 });
    return [];
  } catch (error) {
    return [`attw:\n${indent(errorText(error))}`];
  }
}

function errorText(error: unknown): string {
  const failed = error as { stdout?: string; stderr?: string; message?: string };
  return [failed.stdout, failed.stderr].filter(Boolean).join("\n").trim() || String(failed.message ?? error);
}

function indent(text: string): string {
  return text.replace(/^/gm, "    ");
}

process.exitCode = await main();
