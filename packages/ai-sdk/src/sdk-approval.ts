interface MessagePart {
  type?: unknown;
  approvalId?: unknown;
  toolCallId?: unknown;
  approved?: unknown;
}

function partsOf(message: unknown): MessagePart[] {
  const content = (message as { content?: unknown } | null)?.content;
  return Array.isArray(content) ? (content as MessagePart[]) : [];
}

/**
 * True when the messages hold the AI SDK's approval of this tool call: an assistant's
 * `tool-approval-request` for the call id and a `tool-approval-response` with `approved: true` for it.
 */
export function isApprovedInMessages(messages: unknown, toolCallId: string): boolean {
  if (!Array.isArray(messages)) return false;
  const approvalIds = new Set<unknown>();
  for (const message of messages)
    for (const part of partsOf(message)) if (part.type === "tool-approval-request" && part.toolCallId === toolCallId) approvalIds.add(part.approvalId);
  if (approvalIds.size === 0) return false;
  return messages.some((message) =>
    partsOf(message).some((part) => part.type === "tool-approval-response" && part.approved === true && approvalIds.has(part.approvalId)),
  );
}
