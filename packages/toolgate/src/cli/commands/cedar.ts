import type { Command } from "commander";
import { readFile } from "node:fs/promises";
import { cedarPackage, importOptional, MissingPackageError } from "@toolgate/host/internal";
import { CliError, exitCodes, type ExitCode } from "../cli-error.js";
import { resolveCwd } from "../open-host.js";
import { printJson, printLine } from "../output.js";
import { connectUpstream } from "../../mcp-proxy/upstream.js";
import { hostVersion } from "../versions.js";

type CedarModule = typeof import("@toolgate/cedar");
type ToolDescription = import("@toolgate/cedar").CedarToolDescription;

interface SchemaOptions {
  cwd?: string;
  json?: boolean;
  tools?: string;
}

const helpText = `
Prints the Cedar schema of the requests toolgate makes (principal Agent, action Action::"<tool>",
resource Tool, the context's fixed fields), with one action per tool whose arguments it knows:
from --tools (a JSON file: an array of { name, inputSchema }, or an MCP tools/list result), or from an
MCP server started after "--" (its tools/list). Without tools it prints the types alone.
Save it and name it as the hook's schema to validate policies against it at load:
  toolgate cedar schema -- npx -y @modelcontextprotocol/server-filesystem . > toolgate.cedarschema

Exit codes: 0 printed, 1 @toolgate/cedar is not installed or the MCP server failed, 2 bad usage or an unreadable tools file.`;

export function registerCedarCommand(program: Command): void {
  const cedar = program.command("cedar").description('Cedar policies (type: "cedar" hooks, from @toolgate/cedar)');
  cedar
    .command("schema")
    .description("print a Cedar schema for toolgate's requests, from the tools' input schemas")
    .argument("[server...]", "an MCP server command (after --) whose tools/list to read")
    .option("--cwd <dir>", "the project folder (where @toolgate/cedar is installed)", undefined)
    .option("--tools <file>", "a JSON file of tools: [{ name, inputSchema }] or { tools: [...] }")
    .option("--json", "print the schema in Cedar's JSON form")
    .addHelpText("after", helpText)
    .action(async (server: string[], options: SchemaOptions) => {
      process.exitCode = await printSchema(server, options);
    });
}

async function printSchema(server: readonly string[], options: SchemaOptions): Promise<ExitCode> {
  const cwd = resolveCwd(options.cwd);
  const cedar = await loadCedar(cwd);
  const tools = [...(options.tools === undefined ? [] : await toolsFromFile(options.tools)), ...(server.length === 0 ? [] : await toolsFromServer(server))];
  if (options.json) printJson(cedar.cedarSchema(tools));
  else printLine(cedar.cedarSchemaText(tools));
  return exitCodes.ok;
}

async function loadCedar(cwd: string): Promise<CedarModule> {
  try {
    return await importOptional(cedarPackage, cwd, () => import("@toolgate/cedar"));
  } catch (error) {
    if (error instanceof MissingPackageError) throw new CliError(error.message, exitCodes.failure);
    throw error;
  }
}

async function toolsFromFile(file: string): Promise<ToolDescription[]> {
  let parsed: unknown;
  try {
    parsed = JSON.parse(await readFile(file, "utf8"));
  } catch (error) {
    throw new CliError(`--tools ${file} is not a readable JSON file: ${error instanceof Error ? error.message : String(error)}`, exitCodes.usage);
  }
  const list = Array.isArray(parsed) ? parsed : (parsed as { tools?: unknown } | null)?.tools;
  if (!Array.isArray(list)) throw new CliError(`--tools ${file} must hold an array of tools or an object with "tools"`, exitCodes.usage);
  return list.map((tool: unknown, index) => {
    const { name, inputSchema, input_schema, parameters } = (tool ?? {}) as Record<string, unknown>;
    if (typeof name !== "string" || name === "") throw new CliError(`--tools ${file}: tool ${index} has no name`, exitCodes.usage);
    return { name, inputSchema: inputSchema ?? input_schema ?? parameters };
  });
}

async function toolsFromServer([command, ...args]: readonly string[]): Promise<ToolDescription[]> {
  if (command === undefined) return [];
  const client = await connectUpstream({ command, args }, { name: "toolgate-cedar-schema", version: hostVersion() }, {}).catch((error: unknown) => {
    throw new CliError(
      `the MCP server "${[command, ...args].join(" ")}" could not start: ${error instanceof Error ? error.message : String(error)}`,
      exitCodes.failure,
    );
  });
  try {
    const tools: ToolDescription[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor === undefined ? {} : { cursor });
      tools.push(...page.tools.map((tool) => ({ name: tool.name, inputSchema: tool.inputSchema })));
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    return tools;
  } finally {
    await client.close();
  }
}
