// Plain JavaScript, run by Node.js 20 as shipped (no build): the HTTP proxy that lets a contained command reach
// only the listed hosts. CONNECT (https and any other tunnel) and absolute-URI requests (plain http) to a listed
// host go through; everything else gets a 403 that names the host and the option that would allow it.
import { request as httpRequest, createServer } from "node:http";
import { connect } from "node:net";
import { isAllowedHost } from "./allowed-hosts.mjs";

const printable = /^[\x21-\x7e]{1,255}$/;

/** The proxy's server (not listening yet) and a function that ends every connection it holds. */
export function createAllowListProxy(patterns, log) {
  const sockets = new Set();
  const server = createServer((req, res) => forwardRequest(req, res, patterns, log));
  server.on("connection", (socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });
  server.on("connect", (req, socket, head) => tunnel(req, socket, head, patterns, log));
  server.on("clientError", (_error, socket) => socket.destroy());
  return {
    server,
    closeAll: () => {
      for (const socket of sockets) socket.destroy();
    },
  };
}

/** The message of a refusal: which host, and what to set so that it is allowed. */
export function refusalMessage(host) {
  const shown = printable.test(host) ? host : JSON.stringify(host);
  return `toolgate sandbox: the network is limited to listed hosts, and ${shown} is not one of them; to allow it, add it to the sandbox's option network: { allow: [...] } in toolgate.config`;
}

function tunnel(req, socket, head, patterns, log) {
  socket.on("error", () => socket.destroy());
  const target = parseAuthority(req.url);
  if (target === undefined) return answer(socket, 400, `toolgate sandbox: CONNECT needs host:port, not ${JSON.stringify(req.url)}`);
  if (!isAllowedHost(target.host, patterns)) return refuse(socket, target.host, log);
  const upstream = connect({ host: target.host, port: target.port });
  let connected = false;
  upstream.once("connect", () => {
    connected = true;
    socket.write("HTTP/1.1 200 Connection Established\r\n\r\n");
    if (head.length > 0) upstream.write(head);
    upstream.pipe(socket);
    socket.pipe(upstream);
  });
  upstream.on("error", (error) => {
    if (!connected) answer(socket, 502, `toolgate sandbox: could not reach ${target.host}:${target.port}: ${error.message}`);
    else socket.destroy();
  });
  socket.on("close", () => upstream.destroy());
}

function forwardRequest(req, res, patterns, log) {
  const target = parseAbsolute(req.url);
  if (target === undefined) return answerResponse(res, 400, "toolgate sandbox: this proxy takes absolute http:// URLs and CONNECT only");
  if (!isAllowedHost(target.host, patterns)) {
    log(refusalMessage(target.host));
    return answerResponse(res, 403, `${refusalMessage(target.host)}\n`);
  }
  const headers = { ...req.headers };
  delete headers["proxy-connection"];
  delete headers["proxy-authorization"];
  const upstream = httpRequest({ host: target.host, port: target.port, method: req.method, path: target.path, headers, agent: false }, (reply) => {
    res.writeHead(reply.statusCode ?? 502, reply.statusMessage, reply.rawHeaders);
    reply.pipe(res);
  });
  upstream.on("error", (error) => {
    if (!res.headersSent) answerResponse(res, 502, `toolgate sandbox: could not reach ${target.host}:${target.port}: ${error.message}\n`);
    else res.destroy();
  });
  req.pipe(upstream);
}

function refuse(socket, host, log) {
  log(refusalMessage(host));
  answer(socket, 403, `${refusalMessage(host)}\n`);
}

function answer(socket, status, body) {
  const reason = status === 403 ? "Forbidden by toolgate sandbox (host not in network.allow)" : status === 502 ? "Bad Gateway" : "Bad Request";
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

function answerResponse(res, status, body) {
  res.writeHead(status, { "Content-Type": "text/plain; charset=utf-8", "Content-Length": Buffer.byteLength(body), Connection: "close" });
  res.end(body);
}

/** `host:port` of a CONNECT (`[::1]:443` for IPv6), or undefined. */
function parseAuthority(authority) {
  const match = /^(\[[0-9a-fA-F:.]+\]|[^:[\]/@\s]+):(\d{1,5})$/.exec(authority ?? "");
  if (match === null || Number(match[2]) < 1 || Number(match[2]) > 65535) return undefined;
  return { host: unbracket(match[1]), port: Number(match[2]) };
}

function unbracket(host) {
  return host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
}

/** The host, port and path of an absolute `http://` request URI, or undefined. */
function parseAbsolute(uri) {
  if (!/^http:\/\//i.test(uri ?? "")) return undefined;
  try {
    const url = new URL(uri);
    return { host: unbracket(url.hostname), port: Number(url.port || 80), path: `${url.pathname}${url.search}` };
  } catch {
    return undefined;
  }
}
