// Verdaccio in a process of its own, for the publish end-to-end test. Takes the config file path,
// listens on a free port on 127.0.0.1 (port 0: the kernel picks it, so two runs never collide) and
// prints `registry-port=<port>` once it accepts connections. It exits when its stdin closes, so the
// server never outlives the test process, even one that is killed.
import { runServer } from "verdaccio";

const [configPath] = process.argv.slice(2);
if (!configPath) {
  console.error("usage: registry-server.mjs <config.yaml>");
  process.exit(2);
}

const server = await runServer(configPath);
server.listen(0, "127.0.0.1", () => {
  console.log(`registry-port=${server.address().port}`);
});

function stop() {
  server.close(() => process.exit(0));
  server.closeAllConnections();
  setTimeout(() => process.exit(0), 2000).unref();
}
process.stdin.on("end", stop).on("close", stop).resume();
process.on("SIGTERM", stop);
