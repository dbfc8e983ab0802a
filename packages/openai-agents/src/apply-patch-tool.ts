import type { ApplyPatchOperation, ApplyPatchResult, ApplyPatchTool, Editor, EditorInvocationContext } from "@openai/agents";
import { createApprovalSeam } from "./approval-seam.js";
import type { CallGate } from "./gate.js";

/**
 * An apply_patch tool whose operations pass the gate. Plugins see `kind: "apply_patch"` and the
 * operation as arguments (`type`, `path`, `diff`); a `modify` changes the operation the editor gets.
 */
export function gateApplyPatchTool(tool: ApplyPatchTool, gate: CallGate): ApplyPatchTool {
  const { editor } = tool;
  const seam = createApprovalSeam<ApplyPatchOperation>({
    gate,
    name: tool.name,
    kind: "apply_patch",
    argsOf: (operation) => ({ ...operation }),
    needsApproval: tool.needsApproval,
    onApproval: tool.onApproval,
  });
  const apply = async (operation: ApplyPatchOperation, context?: EditorInvocationContext): Promise<ApplyPatchResult | void> => {
    const { call, verdict } = await seam.verdictFor(operation);
    if (verdict.action === "block") return { status: "failed", output: await gate.blockedText(call, verdict) };
    const final = { ...operation, ...verdict.args } as ApplyPatchOperation;
    switch (final.type) {
      case "create_file":
        return editor.createFile(final, context);
      case "update_file":
        return editor.updateFile(final, context);
      case "delete_file":
        return editor.deleteFile(final, context);
      default:
        return { status: "failed", output: `unsupported apply_patch operation ${JSON.stringify((final as { type?: unknown }).type)}` };
    }
  };
  const gatedEditor: Editor = { createFile: apply, updateFile: apply, deleteFile: apply };
  return { ...tool, editor: gatedEditor, needsApproval: seam.needsApproval, onApproval: seam.onApproval };
}
