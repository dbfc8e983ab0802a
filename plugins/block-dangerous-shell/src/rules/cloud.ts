import { firstMessage, hasFlag, positionals, show, type Rule } from "./rule.js";

// One list for every decision: `named` keeps its answers by the list asked with.
const cloudTools: readonly string[] = ["aws", "gcloud", "az", "gsutil"];

export const cloudRules: readonly Rule[] = [
  {
    id: "cloud-destroy",
    pack: "cloud",
    summary: "`aws … delete-*/terminate-*`, `aws s3 rm --recursive`, `aws s3 rb`, `gcloud … delete`, `gsutil rm -r`, `az … delete`",
    check: ({ named }) =>
      firstMessage(named(cloudTools), (invocation) => {
        const { name, args } = invocation;
        const words = positionals(args, [
          "--region",
          "--profile",
          "--output",
          "--endpoint-url",
          "--query",
          "--project",
          "--subscription",
          "-g",
          "--resource-group",
          "--configuration",
          "--format",
          "--account",
        ]);
        let reason: string | undefined;
        if (name === "aws") {
          const [service, action = ""] = words;
          if (service === "s3" && ((action === "rm" && hasFlag(args, undefined, "--recursive")) || action === "rb"))
            reason = "it deletes a bucket or every object under a prefix";
          else if (/^(delete|terminate|remove|purge)-/.test(action) || action === "deregister-image") reason = `\`${action}\` destroys cloud resources`;
        } else if (name === "gcloud" || name === "az") {
          const command = words.slice(0, 5);
          if (command.includes("delete") || command.some((word) => /^delete-/.test(word))) reason = "it deletes cloud resources";
          if (name === "gcloud" && command[0] === "storage" && command[1] === "rm" && hasFlag(args, "r", "--recursive"))
            reason = "it deletes every object under a path";
        } else if (name === "gsutil") {
          if ((words[0] === "rm" && hasFlag(args, "r", "--recursive")) || words[0] === "rb") reason = "it deletes a bucket or every object under a path";
        }
        return reason === undefined
          ? undefined
          : `refusing ${show(invocation)}: ${reason}, and it cannot be undone. Ask the user to run it, or describe the change for them to review.`;
      }),
  },
];
