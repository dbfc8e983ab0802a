import { describeThrown } from "@toolgate/host/internal";
import { CliError, exitCodes } from "../cli/cli-error.js";

/**
 * A policy that cannot decide is an error naming the side, never an empty report: a usage error stays
 * one, anything else (a config or plugin that does not load) exits 1.
 */
export function rethrowForSide(side: string, reword: (message: string) => string = (message) => message): (error: unknown) => never {
  return (error) => {
    const message = `${side}: ${reword(describeThrown(error))}`;
    throw new CliError(message, error instanceof CliError ? error.exitCode : exitCodes.failure);
  };
}
