import { firstMessage, hasFlag, positionals, show, type Rule } from "./rule.js";

const clusterWide =
  /^(namespaces?|ns|nodes?|no|persistentvolumes?|pv|persistentvolumeclaims?|pvc|customresourcedefinitions?|crds?|clusterroles?|clusterrolebindings?)$/;

// One list for every decision: `named` keeps its answers by the list asked with.
const clusterTools: readonly string[] = ["kubectl", "oc", "k3s", "microk8s", "helm"];

export const kubernetesRules: readonly Rule[] = [
  {
    id: "kubernetes-destroy",
    pack: "kubernetes",
    summary: "`kubectl delete namespace|node|pv|crd …`, `kubectl delete --all` / `-A`, `kubectl drain`, `helm uninstall`",
    check: ({ named }) =>
      firstMessage(named(clusterTools), (invocation) => {
        const { name, args } = invocation;
        let reason: string | undefined;
        if (name === "kubectl" || name === "oc" || name === "k3s" || name === "microk8s") {
          const words = positionals(args, [
            "-n",
            "--namespace",
            "--context",
            "--cluster",
            "--kubeconfig",
            "-l",
            "--selector",
            "-f",
            "--filename",
            "-o",
            "--output",
          ]).filter((arg) => arg !== "kubectl");
          if (words[0] === "delete") {
            const kinds = (words[1] ?? "").split(/[,/]/);
            if (kinds.some((kind) => clusterWide.test(kind))) reason = `it deletes ${words[1]} and everything in it`;
            else if (hasFlag(args, "A", "--all", "--all-namespaces")) reason = "it deletes every matching resource at once";
          } else if (words[0] === "drain") reason = "it evicts every workload from the node";
        } else if (name === "helm" && /^(uninstall|delete|del|un)$/.test(positionals(args, ["-n", "--namespace", "--kube-context"])[0] ?? "")) {
          reason = "it removes the release and its resources";
        }
        return reason === undefined
          ? undefined
          : `refusing ${show(invocation)}: ${reason}. Delete specific resources by name in a named namespace, or ask the user.`;
      }),
  },
];
