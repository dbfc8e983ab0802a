// Plain JavaScript, run by Node.js 20 as shipped (no build), inside the sandbox:
//   node bridge.mjs SOCKET NO_PROXY -- COMMAND…
// The sandbox has a network of its own with only a loopback, so the command cannot reach the proxy's unix
// socket by TCP: this listens on 127.0.0.1 (a free port), forwards each connection to the socket, and runs the
// command with the proxy variables set to it. It exits with the command's code, or its signal.
import { spawn } from "node:child_process";
import { connect, createServer } from "node:net";

const forwarded = ["SIGTERM", "SIGINT", "SIGHUP", "SIGQUIT"];

function fail(message) {
  process.stderr.write(`toolgate sandbox: ${message}; the command was not run\n`);
  process.exit(126);
}

const [socket, noProxy, separator, ...command] = process.argv.slice(2);
if (socket === undefined || noProxy === undefined || separator !== "--" || command.length === 0) fail("the network bridge expects SOCKET NO_PROXY -- COMMAND…");

const server = createServer((client) => {
  const upstream = connect(socket);
  client.on("error", () => upstream.destroy());
  upstream.on("error", () => client.destroy());
  client.pipe(upstream).pipe(client);
});
server.once("error", (error) => fail(`the network bridge could not listen on 127.0.0.1: ${error.message}`));
server.listen(0, "127.0.0.1", () => {
  const proxy = `http://127.0.0.1:${server.address().port}`;
  const env = { ...process.env, HTTP_PROXY: proxy, HTTPS_PROXY: proxy, http_proxy: proxy, https_proxy: proxy, NO_PROXY: noProxy, no_proxy: noProxy };
  const child = spawn(command[0], command.slice(1), { stdio: "inherit", env });
  const relay = (signal) => child.kill(signal);
  for (const signal of forwarded) process.on(signal, relay);
  child.once("error", (error) => fail(`${command[0]} could not start: ${error.message}`));
  child.once("exit", (code, signal) => {
    for (const name of forwarded) process.off(name, relay);
    if (signal !== null) process.kill(process.pid, signal);
    else process.exit(code ?? 1);
  });
});
