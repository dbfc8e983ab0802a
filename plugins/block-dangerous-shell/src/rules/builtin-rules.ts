import { cloudRules } from "./cloud.js";
import { containerRules } from "./containers.js";
import { databaseRules } from "./databases.js";
import { deleteRules } from "./deletes.js";
import { partitionTableRule } from "./devices.js";
import { gitRules } from "./git.js";
import { kubernetesRules } from "./kubernetes.js";
import type { Rule } from "./rule.js";
import { sudoRule, systemRules } from "./system.js";
import { terraformRules } from "./terraform.js";

const [rmRoot, rmHome, rmSystem, rmProject, rmOutside, rmUnknown] = deleteRules;

/**
 * Every built-in rule, most specific first: the first rule that matches supplies the message, so
 * `sudo rm -rf /` is reported as a root delete rather than as sudo.
 */
export const builtinRules: readonly Rule[] = [
  rmRoot!,
  rmHome!,
  rmSystem!,
  rmProject!,
  ...systemRules,
  partitionTableRule,
  rmOutside!,
  rmUnknown!,
  ...gitRules,
  ...databaseRules,
  ...containerRules,
  ...kubernetesRules,
  ...cloudRules,
  ...terraformRules,
  sudoRule,
];
