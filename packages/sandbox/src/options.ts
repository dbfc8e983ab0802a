import { homedir } from "node:os";
import { isAbsolute, resolve } from "node:path";
import * as v from "valibot";
import { patternProblem } from "../runner/allowed-hosts.mjs";

/** Where a contained command may connect: nowhere, anywhere, or the listed hosts only (through a proxy). */
export type NetworkOption = "off" | "on" | { allow: string[] };

export interface SandboxOptions {
  /**
   * More paths the contained command may write, beyond the project folder and its private `/tmp`:
   * absolute, relative to the project, or `~/…` in the home folder (`"~/.npm"` lets `npm install` keep its cache).
   * @default []
   */
  writable?: string[];
  /** Paths the contained command cannot see at all (an empty folder or file stands in their place). @default [] */
  hidden?: string[];
  /**
   * `"off"`: no network inside (only a loopback of its own); `"on"`: the machine's network;
   * `{ allow: ["registry.npmjs.org", "*.github.com"] }`: HTTP and HTTPS to the listed hosts only, through a proxy
   * the contained command starts for itself (`*.` matches subdomains; an IP address only when listed), and no
   * other connection. @default "off"
   */
  network?: NetworkOption;
  /**
   * When no sandbox can start on this machine (bubblewrap missing, user namespaces off, not Linux):
   * `"block"` every shell call with what to install, `"ask"` a human, or `"allow"` with the reader alone.
   * @default "block"
   */
  unavailable?: "block" | "ask" | "allow";
}

export interface ResolvedSandboxOptions {
  readonly writable: readonly string[];
  readonly hidden: readonly string[];
  readonly network: "off" | "on" | { readonly allow: readonly string[] };
  readonly unavailable: "block" | "ask" | "allow";
}

const pathList = (name: string) =>
  v.optional(
    v.array(
      v.pipe(v.string(`each entry of ${name} must be a path (a string)`), v.nonEmpty(`an entry of ${name} is empty`)),
      `${name} must be an array of paths`,
    ),
  );

const OptionsSchema = v.strictObject(
  {
    writable: pathList("writable"),
    hidden: pathList("hidden"),
    network: v.optional(
      v.union(
        [
          v.picklist(["off", "on"]),
          v.strictObject(
            {
              allow: v.array(
                v.pipe(
                  v.string("each entry of network.allow must be a host name (a string)"),
                  v.check(
                    (entry) => patternProblem(entry) === undefined,
                    (issue) => patternProblem(String(issue.input)) ?? "not a host name",
                  ),
                ),
                "network.allow must be an array of host names",
              ),
            },
            "network takes only allow (an array of host names)",
          ),
        ],
        'network must be "off", "on" or { allow: ["host", "*.domain", …] }',
      ),
    ),
    unavailable: v.optional(v.picklist(["block", "ask", "allow"], 'unavailable must be "block", "ask" or "allow"')),
  },
  "is not an option of @toolgate/sandbox (writable, hidden, network, unavailable)",
);

/** Checks the options and makes every path absolute (`~/` is the home folder, others are relative to `projectRoot`). */
export function resolveOptions(options: SandboxOptions, projectRoot: string, home = homedir()): ResolvedSandboxOptions {
  const parsed = v.safeParse(OptionsSchema, options ?? {});
  if (!parsed.success) throw new TypeError(`@toolgate/sandbox: ${parsed.issues.map(describeIssue).join("; ")}`);
  const { writable = [], hidden = [], network = "off", unavailable = "block" } = parsed.output;
  const absolute = (path: string) =>
    path === "~" || path.startsWith("~/") ? resolve(home, `.${path.slice(1)}`) : isAbsolute(path) ? resolve(path) : resolve(projectRoot, path);
  return Object.freeze({
    writable: Object.freeze(writable.map(absolute)),
    hidden: Object.freeze(hidden.map(absolute)),
    network: typeof network === "string" ? network : Object.freeze({ allow: Object.freeze([...network.allow]) }),
    unavailable,
  });
}

function describeIssue(issue: v.BaseIssue<unknown>): string {
  const path = issue.path?.map((item) => String(item.key)).join(".");
  return path ? `${path}: ${issue.message}` : issue.message;
}
