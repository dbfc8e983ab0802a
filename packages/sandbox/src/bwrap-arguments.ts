/** What one contained command may touch; every path absolute and existing. */
export interface SandboxPlan {
  readonly projectRoot: string;
  /** Beyond the project: more folders and files the command may write. */
  readonly writable: readonly string[];
  /** Inside the writable areas: toolgate's own policy, which stays read-only. */
  readonly readOnly: readonly string[];
  readonly hidden: readonly { readonly path: string; readonly folder: boolean }[];
  /** With `allow`, the network stays unshared here: the runner before bwrap adds the way to its proxy. */
  readonly network: "off" | "on" | { readonly allow: readonly string[] };
}

/**
 * The sandbox without its paths: new namespaces for processes, IPC and (with `network: "off"`) the
 * network, the whole file system read-only, a private `/dev` without real devices, a fresh `/proc`, a
 * private `/tmp`. The host name stays (no UTS namespace), so programs print what they print outside.
 */
export function baseArguments(network: "off" | "on"): string[] {
  return [
    "--die-with-parent",
    "--new-session",
    "--unshare-user-try",
    "--unshare-ipc",
    "--unshare-pid",
    "--unshare-cgroup-try",
    ...(network === "off" ? ["--unshare-net"] : []),
    "--ro-bind",
    "/",
    "/",
    "--dev",
    "/dev",
    "--proc",
    "/proc",
    "--tmpfs",
    "/tmp",
  ];
}

/** bubblewrap's arguments for `plan`; later mounts cover earlier ones, so the read-only policy comes after the writable binds. */
export function bwrapArguments(plan: SandboxPlan): string[] {
  const args = baseArguments(plan.network === "on" ? "on" : "off");
  for (const path of [plan.projectRoot, ...plan.writable]) args.push("--bind", path, path);
  for (const path of plan.readOnly) args.push("--ro-bind", path, path);
  for (const { path, folder } of plan.hidden) args.push(...(folder ? ["--tmpfs", path, "--remount-ro", path] : ["--ro-bind", "/dev/null", path]));
  return args;
}
