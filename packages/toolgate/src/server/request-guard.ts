import type { IncomingHttpHeaders } from "node:http";
import { networkInterfaces } from "node:os";

/** Why a request is refused before it is read: the status, and the error the body carries. */
export interface Refusal {
  status: 403 | 415 | 421;
  error: string;
}

/**
 * Who may talk to `toolgate serve`, decided from the headers alone so that a web page cannot: the
 * `Host` must name the server itself (a DNS-rebound name does not), an `Origin` must be the server's own,
 * a browser's `Sec-Fetch-Site` must not say another site, and a POST body must be `application/json`
 * (a form or `text/plain` post is what a page can send without asking the server first).
 */
export interface RequestGuard {
  /** The refusal, or undefined when the request may go on. A few Set lookups: it runs on every request. */
  refuse(method: string | undefined, headers: IncomingHttpHeaders): Refusal | undefined;
}

const loopbackNames = ["127.0.0.1", "localhost", "[::1]"];
const wildcardAddresses = new Set(["0.0.0.0", "::", "[::]"]);

/**
 * The `Host` values the server answers to on `port`: the loopback names, the address it was bound to
 * (`--host`), and, when bound to every interface (`0.0.0.0`, `::`), each interface's address. Port 80
 * also allows each name without the port, as browsers and clients send it.
 */
export function allowedHosts(port: number, boundHost: string | undefined): Set<string> {
  const names = new Set(loopbackNames);
  if (boundHost !== undefined && boundHost !== "") {
    if (wildcardAddresses.has(boundHost)) for (const address of interfaceAddresses()) names.add(address);
    else names.add(bracketed(boundHost.toLowerCase()));
  }
  const hosts = new Set<string>();
  for (const name of names) {
    hosts.add(`${name}:${port}`);
    if (port === 80) hosts.add(name);
  }
  return hosts;
}

export function createRequestGuard(hosts: ReadonlySet<string>): RequestGuard {
  const origins = new Set([...hosts].map((host) => `http://${host}`));
  return {
    refuse(method, headers) {
      const host = headers.host;
      if (host === undefined || !(hosts.has(host) || hosts.has(host.toLowerCase())))
        return {
          status: 421,
          error: `the Host header ${host === undefined ? "is missing" : JSON.stringify(host)}: this server answers only to ${[...hosts].join(", ")}`,
        };
      const origin = headers.origin;
      if (origin !== undefined && !(origins.has(origin) || origins.has(origin.toLowerCase())))
        return { status: 403, error: `cross-origin requests are refused (Origin ${JSON.stringify(origin)})` };
      const site = headers["sec-fetch-site"];
      if (site !== undefined && site !== "same-origin" && site !== "none")
        return { status: 403, error: `cross-site requests are refused (Sec-Fetch-Site: ${site})` };
      if (method === "POST" && !isJson(headers["content-type"]))
        return {
          status: 415,
          error: `the body must be sent as Content-Type: application/json (got ${headers["content-type"] === undefined ? "none" : JSON.stringify(headers["content-type"])})`,
        };
      return undefined;
    },
  };
}

/** `application/json`, alone or with `charset=utf-8`; the media type and the charset are case-insensitive. */
export function isJson(contentType: string | undefined): boolean {
  if (contentType === undefined) return false;
  if (contentType === "application/json" || contentType === "application/json; charset=utf-8") return true;
  const [type = "", ...parameters] = contentType.split(";");
  if (type.trim().toLowerCase() !== "application/json") return false;
  for (const parameter of parameters) {
    const [name = "", value = ""] = parameter.split("=", 2).map((part) => part.trim().toLowerCase());
    if (name !== "charset" || (value !== "utf-8" && value !== '"utf-8"')) return false;
  }
  return true;
}

function bracketed(address: string): string {
  return address.includes(":") && !address.startsWith("[") ? `[${address}]` : address;
}

function interfaceAddresses(): string[] {
  return Object.values(networkInterfaces())
    .flat()
    .flatMap((info) => (info === undefined ? [] : [bracketed(info.address.split("%", 1)[0]!.toLowerCase())]));
}
