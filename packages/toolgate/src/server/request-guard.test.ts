import { describe, expect, it } from "vitest";
import { allowedHosts, createRequestGuard, isJson } from "./request-guard.js";

describe("allowedHosts", () => {
  it("the loopback names with the port, and the --host address (IPv6 in brackets)", () => {
    expect([...allowedHosts(8787, "127.0.0.1")].sort()).toEqual(["127.0.0.1:8787", "[::1]:8787", "localhost:8787"]);
    expect(allowedHosts(8787, "::1").has("[::1]:8787")).toBe(true);
    expect(allowedHosts(8787, "10.0.0.7").has("10.0.0.7:8787")).toBe(true);
    expect(allowedHosts(8787, "Box.Local").has("box.local:8787")).toBe(true);
  });

  it("on port 80 the names alone too; bound to every interface, each interface's address", () => {
    expect(allowedHosts(80, undefined)).toEqual(new Set(["127.0.0.1:80", "127.0.0.1", "localhost:80", "localhost", "[::1]:80", "[::1]"]));
    expect(allowedHosts(8787, "localhost").has("localhost")).toBe(false);
    const wildcard = allowedHosts(8787, "0.0.0.0");
    expect(wildcard.has("127.0.0.1:8787")).toBe(true);
    expect(wildcard.has("0.0.0.0:8787")).toBe(false);
  });
});

describe("the guard", () => {
  const guard = createRequestGuard(allowedHosts(8787, undefined));
  it("GET needs no Content-Type; a refusal names what it refused", () => {
    expect(guard.refuse("GET", { host: "localhost:8787" })).toBeUndefined();
    expect(guard.refuse("GET", { host: "evil.com:8787" })).toEqual({ status: 421, error: expect.stringContaining('"evil.com:8787"') });
    expect(guard.refuse("POST", { host: "localhost:8787", "content-type": "text/plain" })?.status).toBe(415);
  });
});

describe("isJson", () => {
  it.each([
    ["application/json", true],
    ["application/json; charset=utf-8", true],
    ["APPLICATION/JSON ; CHARSET = UTF-8", true],
    ["application/json;", false],
    ["application/json; charset=utf-16", false],
    [undefined, false],
  ])("%j: %s", (value, expected) => expect(isJson(value)).toBe(expected));
});
