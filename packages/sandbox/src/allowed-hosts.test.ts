import { describe, expect, it } from "vitest";
import { isAllowedHost, patternProblem } from "../runner/allowed-hosts.mjs";

describe("network.allow: which hosts an entry lets through", () => {
  const allow = ["registry.npmjs.org", "*.github.com", "10.0.0.7", "::1"];
  it.each([
    ["registry.npmjs.org", true],
    ["REGISTRY.npmjs.org.", true],
    ["api.github.com", true],
    ["a.b.github.com", true],
    ["github.com", false],
    ["evilgithub.com", false],
    ["github.com.evil.test", false],
    ["npmjs.org", false],
    ["10.0.0.7", true],
    ["[::1]", true],
    ["10.0.0.8", false],
    ["127.0.0.1", false],
    ["registry.npmjs.org:443", false],
    ["", false],
  ])("%s → %s", (host, allowed) => {
    expect(isAllowedHost(host, allow)).toBe(allowed);
  });

  it("never lets a wildcard match an IP address", () => {
    expect(isAllowedHost("1.2.3.4", ["*.3.4"])).toBe(false);
  });

  it("takes host names, *. and a host name, and IP addresses, and says what is wrong with anything else", () => {
    for (const entry of ["localhost", "*.github.com", "127.0.0.1", "::1", "[::1]", "Example.COM."]) expect(patternProblem(entry)).toBeUndefined();
    for (const entry of ["*", "*.", "a.*.com", "http://x.com", "x.com:443", "a b", "", "-x.com"]) expect(patternProblem(entry)).toMatch(/is not a host name/);
  });
});
