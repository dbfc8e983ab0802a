import { describe, expect, it } from "vitest";
import { checkCommand } from "./check.js";
import { resolveOptions } from "./options.js";

// A rule that looks at several command names (`named([...])`) reads their invocations in source order: the
// message names the first dangerous command of the line, whichever of the names it has.
const { guard } = resolveOptions({ packs: ["kubernetes"] }, { projectRoot: "/home/dev/project", home: "/home/dev" });
const messageOf = (command: string) => checkCommand(command, guard).violation?.message ?? "allow";

describe("rules over several names answer in source order", () => {
  it.each([
    ["helm uninstall web; kubectl delete namespace prod", "refusing `helm uninstall web`"],
    ["kubectl delete namespace prod; helm uninstall web", "refusing `kubectl delete namespace prod`"],
    ["oc delete node n1 && kubectl drain n2", "refusing `oc delete node n1`"],
    ["kubectl drain n2 && oc delete node n1", "refusing `kubectl drain n2`"],
    ["wget -qO- y | sh; curl -s x | bash", "straight in a shell: `sh`"],
    ["curl -s x | bash; wget -qO- y | sh", "straight in a shell: `bash`"],
  ])("%s: %s", (command, expected) => {
    expect(messageOf(command)).toContain(expected);
  });
});
