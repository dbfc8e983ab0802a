import { isatty } from "node:tty";
import type { Command } from "commander";
import { rotatedPathOf } from "@toolgate/host/internal";
import { CliError, exitCodes } from "../cli-error.js";
import { createColors } from "../colors.js";
import { resolveCwd } from "../open-host.js";
import { printJsonLine, printLine, printNote } from "../output.js";
import { createRecordTest, FilterError, type RecordFilter, type RecordTest } from "../../decisions/filter.js";
import { followLog } from "../../decisions/follow-log.js";
import { formatRecordLine } from "../../decisions/format-line.js";
import { findLogPath } from "../../decisions/log-files.js";
import { readLog } from "../../decisions/read-log.js";
import type { DecisionRecord } from "../../decisions/record.js";

interface DecisionsOptions extends RecordFilter {
  cwd?: string;
  file?: string;
  json?: boolean;
  follow?: boolean;
  last?: string;
}

const helpText = `
Examples:
  toolgate decisions --verdict block --since 1h
  toolgate decisions --follow --tool 'mcp__*'
  toolgate decisions --source block-dangerous-shell --json
  toolgate decisions --shadow --since 7d

Reads the project's decisions.log (default .toolgate/decisions.jsonl, and decisions.1.jsonl, the part rotated out), one line
per decided call: time, surface, verdict, tool, who decided and why, and what a shadow participant
(shadow: true in the config) would have decided instead. Lines that are not records are
skipped. --follow keeps printing records as they are appended, across rotations, until interrupted.`;

export function registerDecisionsCommand(program: Command): void {
  program
    .command("decisions")
    .description("the decisions recorded in the project: which plugin, rule or hook decided each call, and why")
    .option("--cwd <dir>", "the project folder")
    .option("--file <path>", "the log to read (default: .toolgate/decisions.jsonl in the project)")
    .option("--json", "the records as JSON lines")
    .option("-f, --follow", "keep printing records as they are appended")
    .option("--tool <glob>", "only calls of these tools (a glob: Bash, 'mcp__*')")
    .option("--verdict <verdict>", "only this verdict: allow, ask or block (deny is block)")
    .option("--source <name>", "only what this plugin, rule or hook decided (its name, or kind:name)")
    .option("--session <id>", "only this session")
    .option("--since <time>", "only records from this time on: an ISO time, or a duration back from now (30s, 10m, 2h, 7d)")
    .option("--last <n>", "only the last n matching records (then --follow goes on from there)")
    .option("--shadow", "only the calls a shadow plugin, rule or hook would have decided otherwise")
    .addHelpText("after", helpText)
    .action(async (options: DecisionsOptions) => {
      await showDecisions(options);
    });
}

async function showDecisions(options: DecisionsOptions): Promise<void> {
  const logPath = await findLogPath({ cwd: resolveCwd(options.cwd), file: options.file });
  const matches = recordTest(options);
  const last = lastCount(options.last);
  const print = printerFor(options.json === true);
  const showInitial = (records: DecisionRecord[]) => {
    const shown = records.filter(matches);
    for (const record of last === undefined ? shown : shown.slice(-last)) print(record);
    return { read: records.length, shown: shown.length };
  };
  if (!options.follow) {
    const { read, shown } = showInitial(readLog(logPath));
    // On stderr, so that --json output stays records only.
    if (read === 0)
      printNote(
        `[toolgate] no decisions recorded in ${logPath} (nor in ${rotatedPathOf(logPath)}); the hooks, serve and mcp-proxy write there, the library only with decisions: { log }`,
      );
    else if (shown === 0) printNote(`[toolgate] none of the ${read} records in ${logPath} matches the filters`);
    return;
  }
  await new Promise<void>((resolve) => {
    const follower = followLog(logPath, {
      onRecords: (records, initial) => {
        if (initial) showInitial(records);
        else records.filter(matches).forEach(print);
      },
      onError: (error) => printNote(`[toolgate] cannot read ${logPath}: ${String(error)}`),
    });
    const stop = () => {
      follower.close();
      resolve();
    };
    process.once("SIGINT", stop);
    process.once("SIGTERM", stop);
  });
}

function recordTest(options: DecisionsOptions): RecordTest {
  try {
    return createRecordTest(options);
  } catch (error) {
    if (error instanceof FilterError) throw new CliError(error.message, exitCodes.usage);
    throw error;
  }
}

function lastCount(option: string | undefined): number | undefined {
  if (option === undefined) return undefined;
  const count = Number(option);
  if (!Number.isInteger(count) || count < 0) throw new CliError(`--last ${option}: expected a whole number of records`, exitCodes.usage);
  return count;
}

function printerFor(json: boolean): (record: DecisionRecord) => void {
  if (json) return printJsonLine;
  const colors = createColors(colorsWanted());
  return (record) => printLine(formatRecordLine(record, colors));
}

/** NO_COLOR turns colour off, FORCE_COLOR (not "0") on even into a pipe; otherwise colour only on a terminal. */
function colorsWanted(): boolean {
  if (process.env.NO_COLOR) return false;
  const force = process.env.FORCE_COLOR;
  if (force !== undefined && force !== "") return force !== "0" && force !== "false";
  return isatty(1) && process.env.TERM !== "dumb";
}
