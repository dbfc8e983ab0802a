import { stdinTexts, type Invocation } from "@toolgate/shell";
import { firstMessage, show, type Rule } from "./rule.js";

/** Statements that delete data or a database; `DELETE FROM t` only without a `WHERE`. */
const destructiveStatement =
  /\b(?:DROP\s+(?:DATABASE|SCHEMA|TABLE|KEYSPACE|COLLECTION)\b|TRUNCATE\b|DELETE\s+FROM\s+[\w."`[\]]+\s*(?:;|$)|FLUSHALL\b|FLUSHDB\b)|\.dropDatabase\s*\(|\.drop\s*\(\s*\)|\.deleteMany\s*\(\s*\{\s*\}\s*\)/i;

// The option that carries statements, per client.
const statementOptions: Record<string, readonly string[]> = {
  psql: ["-c", "--command"],
  mysql: ["-e", "--execute"],
  mariadb: ["-e", "--execute"],
  mongo: ["--eval"],
  mongosh: ["--eval"],
  cqlsh: ["-e", "--execute"],
  "clickhouse-client": ["-q", "--query"],
  sqlcmd: ["-Q", "-q"],
};
const positionalClients = new Set(["sqlite3", "duckdb", "redis-cli", "valkey-cli", "keydb-cli"]);

const clients = new Set([...Object.keys(statementOptions), ...positionalClients]);

/** `docker exec db psql -c '…'`, `kubectl exec pod -- mysql -e '…'`: the client inside the container. */
function insideContainer(invocation: Invocation): Invocation | undefined {
  if (!/^(docker|podman|kubectl|oc)$/.test(invocation.name) || !invocation.args.includes("exec")) return undefined;
  const client = invocation.args.findIndex((arg) => clients.has(arg));
  if (client === -1) return undefined;
  return { ...invocation, name: invocation.args[client]!, args: invocation.args.slice(client + 1) };
}

const databaseCommands = [...clients, "dropdb", "mysqladmin", "docker", "podman", "kubectl", "oc"];

function statementsOf(invocation: Invocation): string[] {
  const inner = insideContainer(invocation);
  if (inner) return statementsOf(inner);
  const { name, args } = invocation;
  const statements: string[] = [];
  const options = statementOptions[name];
  if (options) {
    args.forEach((arg, index) => {
      if (options.includes(arg) && args[index + 1] !== undefined) statements.push(args[index + 1]!);
      const inline = options.find((option) => option.startsWith("--") && arg.startsWith(`${option}=`));
      if (inline) statements.push(arg.slice(inline.length + 1));
    });
  }
  if (positionalClients.has(name)) statements.push(args.filter((arg) => !arg.startsWith("-")).join(" "));
  if (options || positionalClients.has(name)) statements.push(...stdinTexts(invocation));
  return statements;
}

export const databaseRules: readonly Rule[] = [
  {
    id: "database-destroy",
    pack: "databases",
    summary: "`DROP DATABASE/TABLE`, `TRUNCATE`, `DELETE FROM` without `WHERE` (psql, mysql, sqlite3, …), `FLUSHALL`, `dropDatabase()`, `dropdb`",
    check: ({ named }) =>
      firstMessage(named(databaseCommands), (invocation) => {
        const statement = statementsOf(invocation)
          .map((text) => destructiveStatement.exec(text)?.[0])
          .find((match) => match !== undefined);
        const tool = invocation.name === "dropdb" || (invocation.name === "mysqladmin" && invocation.args.includes("drop"));
        if (statement === undefined && !tool) return undefined;
        const what = statement === undefined ? "it deletes a database" : `\`${statement.trim()}\` deletes data`;
        return `refusing ${show(invocation)}: ${what}, and it cannot be restored without a backup. Ask the user to run it, or work on a copy (take a dump first).`;
      }),
  },
];
