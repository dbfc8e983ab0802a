// A stdio relay that only copies bytes both ways: the floor of any process placed between an MCP client
// and its server on this machine (`pnpm bench:mcp-proxy` runs it as `node byte-relay.cjs -- <server…>`).
const { spawn } = require("node:child_process");

const command = process.argv.slice(process.argv.indexOf("--") + 1);
const server = spawn(command[0], command.slice(1), { stdio: ["pipe", "pipe", "inherit"] });
process.stdin.pipe(server.stdin);
server.stdout.pipe(process.stdout);
server.on("exit", (code) => process.exit(code ?? 0));
