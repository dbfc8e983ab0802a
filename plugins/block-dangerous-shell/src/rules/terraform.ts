import { firstMessage, hasFlag, positionals, show, type Rule } from "./rule.js";

const tools = new Set(["terraform", "tofu", "terragrunt", "pulumi", "cdk", "cdktf"]);
// One list for every decision: `named` keeps its answers by the list asked with.
const toolNames: readonly string[] = [...tools];

export const terraformRules: readonly Rule[] = [
  {
    id: "terraform-destroy",
    pack: "terraform",
    summary: "`terraform destroy`, `terraform apply -destroy` (also tofu, terragrunt, pulumi, cdk)",
    check: ({ named }) =>
      firstMessage(named(toolNames), (invocation) => {
        if (!tools.has(invocation.name)) return undefined;
        const words = positionals(invocation.args);
        const destroys =
          words.includes("destroy") || (words.includes("apply") && (hasFlag(invocation.args, undefined, "--destroy") || invocation.args.includes("-destroy")));
        return destroys
          ? `refusing ${show(invocation)}: it destroys the infrastructure the configuration manages. Run \`${invocation.name} plan -destroy\` to show what would go, and ask the user to apply it.`
          : undefined;
      }),
  },
];
