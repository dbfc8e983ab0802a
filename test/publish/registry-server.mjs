// Verdaccio in a process of its own, for the publish end-to-end test. Takes the config file path, the
// registry everything else comes from and the names served only here (JSON); listens on a free port on
// 127.0.0.1 (port 0: the kernel picks it, so two runs never collide) and prints `registry-port=<port>`
// once it accepts connections. It exits when its stdin closes, so the server never outlives the test
// process, even one that is killed.
import { runServer } from "verdaccio";

const [configPath, uplink, localOnlyJson] = process.argv.slice(2);
if (!configPath || !uplink || !localOnlyJson) {
  console.error("usage: registry-server.mjs <config.yaml> <uplink URL> <local-only name patterns as JSON>");
  process.exit(2);
}
const localOnly = JSON.parse(localOnlyJson).map((pattern) => new RegExp(`^${pattern.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replaceAll("*", "[^/]*")}$`));

const server = await runServer(configPath);
// What is not ours is sent on to the upstream registry (a redirect) rather than proxied: Verdaccio reads
// and rewrites every upstream document (typescript's is 14 MB), which took most of a minute per install
// on a busy machine; npm follows the redirect and reads upstream as it does without this registry.
const [verdaccio] = server.listeners("request");
server.removeAllListeners("request");
server.on("request", (request, response) => {
  const name = packageNameOf(request.url ?? "/");
  if ((request.method === "GET" || request.method === "HEAD") && name !== undefined && !localOnly.some((pattern) => pattern.test(name))) {
    response.writeHead(302, { location: new URL(request.url.slice(1), uplink).href }).end();
    return;
  }
  verdaccio(request, response);
});
server.listen(0, "127.0.0.1", () => {
  console.log(`registry-port=${server.address().port}`);
});

/** The package a registry path is about (`/name`, `/@scope%2fname`, `/@scope/name/-/name-1.0.0.tgz`); undefined for the registry's own API (`/-/…`). */
function packageNameOf(url) {
  const path = decodeURIComponent(new URL(url, "http://registry").pathname).slice(1);
  if (path === "" || path.startsWith("-/")) return undefined;
  const [first, second] = path.split("/");
  return first.startsWith("@") ? `${first}/${second ?? ""}` : first;
}

function stop() {
  server.close(() => process.exit(0));
  server.closeAllConnections();
  setTimeout(() => process.exit(0), 2000).unref();
}
process.stdin.on("end", stop).on("close", stop).resume();
process.on("SIGTERM", stop);
