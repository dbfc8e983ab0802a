import { quoteWord } from "@toolgate/plugin-sdk";

/** The programs a contained command starts with, as absolute paths. */
export interface Launcher {
  readonly bwrap: string;
  readonly bash: string;
  /** Words before bwrap: the runner that starts the allow-listing proxy, with `network: { allow }`. */
  readonly before?: readonly string[];
}

/** A bash command line that runs `line` with bash inside the sandbox `bwrapArgs` describe. */
export function containLine(line: string, launcher: Launcher, bwrapArgs: readonly string[]): string {
  return containArgv([launcher.bash, "-c", line], launcher, bwrapArgs).map(quoteWord).join(" ");
}

/** An argv that runs `argv` inside the sandbox. */
export function containArgv(argv: readonly string[], launcher: Launcher, bwrapArgs: readonly string[]): string[] {
  return [...(launcher.before ?? []), launcher.bwrap, ...bwrapArgs, "--", ...argv];
}
