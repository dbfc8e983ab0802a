import { isUnknown } from "@toolgate/shell";
import { firstMessage, hasFlag, show, type Rule } from "./rule.js";

const engines = new Set(["docker", "podman", "nerdctl"]);
// One list for every decision: `named` keeps its answers by the list asked with.
const containerTools: readonly string[] = [...engines, "docker-compose", "podman-compose"];

export const containerRules: readonly Rule[] = [
  {
    id: "containers-destroy",
    pack: "containers",
    summary: "`docker system prune`, `docker volume prune/rm`, mass `docker rm -f $(docker ps -aq)`, `docker compose down -v`",
    check: ({ named }) =>
      firstMessage(named(containerTools), (invocation) => {
        const { name, args } = invocation;
        const compose = name === "docker-compose" || name === "podman-compose" ? args : engines.has(name) && args[0] === "compose" ? args.slice(1) : undefined;
        let reason: string | undefined;
        if (compose?.includes("down") && hasFlag(compose, "v", "--volumes")) reason = "it deletes the project's volumes and the data in them";
        else if (engines.has(name)) {
          const [group, action] = args;
          if (group === "system" && action === "prune") reason = "it deletes every stopped container, unused network and image (and volumes with --volumes)";
          else if (group === "volume" && (action === "prune" || action === "rm")) reason = "it deletes volumes and the data in them";
          else if (group === "image" && action === "prune" && hasFlag(args, "a", "--all")) reason = "it deletes every image not used by a container";
          else if (
            (group === "rm" || group === "rmi" || (group === "container" && action === "rm")) &&
            args.some((arg) => /\$\(|`/.test(arg) || isUnknown(arg))
          )
            reason = "it removes every container or image a command lists, not ones you named";
        }
        return reason === undefined
          ? undefined
          : `refusing ${show(invocation)}: ${reason}. Remove specific containers, images or volumes by name, or ask the user.`;
      }),
  },
];
