import { spawnSync } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";
import { baseArguments } from "./bwrap-arguments.js";

/** Whether a sandbox can start here, and with which programs; `problem` and `advice` say why not and what to do. */
export type SandboxStatus =
  | { readonly available: true; readonly bwrap: string; readonly bash: string }
  | { readonly available: false; readonly problem: string; readonly advice: string };

const installAdvice =
  "install bubblewrap: `sudo apt-get install bubblewrap` (Debian, Ubuntu), `sudo dnf install bubblewrap` (Fedora), `sudo pacman -S bubblewrap` (Arch), `sudo apk add bubblewrap` (Alpine)";
const namespaceAdvice =
  "bubblewrap needs unprivileged user namespaces: `sudo sysctl -w kernel.unprivileged_userns_clone=1` (Debian), or on Ubuntu 24.04+ `sudo sysctl -w kernel.apparmor_restrict_unprivileged_userns=0` or an AppArmor profile for bwrap; inside a container, run it with user namespaces allowed";

let cached: SandboxStatus | undefined;

/** Probes once per process: finds `bwrap` and `bash` on the PATH and starts a sandbox that runs `true`. */
export function sandboxStatus(): SandboxStatus {
  cached ??= probeSandbox(process.env);
  return cached;
}

/** Probes now, with `environment`'s PATH (`sandboxStatus` keeps the first answer for the process). */
export function probeSandbox(environment: NodeJS.ProcessEnv): SandboxStatus {
  if (process.platform !== "linux")
    return unavailable(
      `the sandbox runs on Linux only (bubblewrap); this is ${process.platform}`,
      'run the agent on Linux, or set unavailable: "ask" or "allow"',
    );
  const bwrap = findProgram("bwrap", environment);
  if (bwrap === undefined) return unavailable("bubblewrap (bwrap) is not installed", installAdvice);
  const bash = findProgram("bash", environment);
  if (bash === undefined) return unavailable("bash is not installed", "install bash");
  const started = spawnSync(bwrap, [...baseArguments("off"), "--", bash, "-c", "true"], {
    encoding: "utf8",
    timeout: 10_000,
    stdio: ["ignore", "ignore", "pipe"],
  });
  if (started.error) return unavailable(`bubblewrap could not start: ${started.error.message}`, installAdvice);
  if (started.status !== 0) return unavailable(`bubblewrap could not start a sandbox: ${started.stderr.trim() || `exit ${started.status}`}`, namespaceAdvice);
  return Object.freeze({ available: true, bwrap, bash });
}

function unavailable(problem: string, advice: string): SandboxStatus {
  return Object.freeze({ available: false, problem, advice });
}

/** The first executable `name` on the PATH, as an absolute path (so a project's own `bwrap` script cannot stand in). */
function findProgram(name: string, environment: NodeJS.ProcessEnv): string | undefined {
  for (const dir of (environment["PATH"] ?? "").split(delimiter)) {
    if (!dir.startsWith("/")) continue;
    const candidate = join(dir, name);
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {}
  }
  return undefined;
}
