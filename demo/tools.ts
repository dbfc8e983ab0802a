import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve, sep } from "node:path";
import type { ToolDefinition } from "@toolgate/host";

/** A throwaway project folder the demo agent works in. Nothing outside it is ever touched. */
export interface Sandbox {
  readonly root: string;
  remove(): Promise<void>;
}

const seedFiles: Record<string, string> = {
  "notes.md": "# Project notes\n\n- [ ] write the README\n- [ ] ship release 1.0\n",
  "README.md": "# demo-app\n\nA tiny app the demo agent tidies up.\n",
  "src/app.ts": 'import { loadConfig } from "./config.js";\n\n// TODO: handle a missing config file\nconsole.log("starting", loadConfig());\n',
  "src/config.ts": "export function loadConfig() {\n  // FIXME: read the port from the environment\n  return { port: 8080 };\n}\n",
  "build/app.js": 'console.log("starting");\n',
  "build/app.js.map": "{}\n",
  "build/index.html": "<!doctype html>\n",
};

export async function createSandbox(): Promise<Sandbox> {
  const root = await mkdtemp(join(tmpdir(), "toolgate-demo-"));
  for (const [path, content] of Object.entries(seedFiles)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), content);
  }
  return { root, remove: () => rm(root, { recursive: true, force: true }) };
}

/**
 * The agent's tools, bound to the sandbox: real file reads, writes and searches, and a `terminal`
 * that never starts a shell (it only knows how to delete the sandbox's own build folder).
 */
export function createSandboxTools(root: string): Record<string, ToolDefinition> {
  return {
    read_file: {
      description: "Read a text file of the project.",
      parameters: objectSchema({ path: "path relative to the project root" }),
      execute: (args) => readFile(inside(root, stringArg(args, "path")), "utf8"),
    },
    write_file: {
      description: "Replace a text file of the project with new content.",
      parameters: objectSchema({ path: "path relative to the project root", content: "the full new content" }),
      async execute(args) {
        const path = inside(root, stringArg(args, "path"));
        const content = stringArg(args, "content");
        await mkdir(dirname(path), { recursive: true });
        await writeFile(path, content);
        return `wrote ${Buffer.byteLength(content)} bytes to ${relative(root, path)}`;
      },
    },
    search: {
      description: "Find the lines of the project's files that contain a string.",
      parameters: objectSchema({ query: "the text to look for" }),
      async execute(args) {
        const query = stringArg(args, "query");
        const hits: string[] = [];
        for (const file of await listFiles(root)) {
          const lines = (await readFile(join(root, file), "utf8")).split("\n");
          for (const [index, line] of lines.entries()) if (line.includes(query)) hits.push(`${file}:${index + 1}: ${line.trim()}`);
        }
        return hits.length > 0 ? hits.join("\n") : `no matches for "${query}"`;
      },
    },
    terminal: {
      description: "Run a shell command in the project folder.",
      kind: "shell",
      parameters: objectSchema({ command: "the command line" }),
      async execute(args) {
        const command = stringArg(args, "command");
        // Safety first: the demo never runs a real shell. The one command it performs, it performs itself.
        if (/^rm\s+-rf\s+(\.\/)?build\/?$/.test(command.trim())) {
          const removed = await listFiles(join(root, "build")).catch(() => []);
          await rm(join(root, "build"), { recursive: true, force: true });
          return `removed ./build (${removed.length} files)`;
        }
        return `(simulated) $ ${command}\nthe demo does not run real shell commands`;
      },
    },
  };
}

/** Files under `dir`, relative to it with "/" separators, sorted; hidden folders (.toolgate, .git) are skipped. */
async function listFiles(dir: string, prefix = ""): Promise<string[]> {
  const files: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.name.startsWith(".")) continue;
    const path = prefix + entry.name;
    if (entry.isDirectory()) files.push(...(await listFiles(join(dir, entry.name), `${path}/`)));
    else if (entry.isFile()) files.push(path);
  }
  return files.sort();
}

function inside(root: string, path: string): string {
  const full = resolve(root, path);
  if (full !== root && !full.startsWith(root + sep)) throw new Error(`${path} is outside the project folder`);
  return full;
}

function stringArg(args: Record<string, unknown>, name: string): string {
  const value = args[name];
  if (typeof value !== "string") throw new Error(`the "${name}" argument must be a string`);
  return value;
}

function objectSchema(properties: Record<string, string>): Record<string, unknown> {
  return {
    type: "object",
    properties: Object.fromEntries(Object.entries(properties).map(([name, description]) => [name, { type: "string", description }])),
    required: Object.keys(properties),
    additionalProperties: false,
  };
}
