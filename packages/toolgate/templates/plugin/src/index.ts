import { definePlugin } from "@toolgate/plugin-sdk";

/**
 * {{pluginName}}: a toolgate plugin.
 *
 * `pre_tool_call` runs before every tool call the agent makes, whatever the tool. Return
 * `{ action: "block", message }` to stop the call (the model receives the message),
 * `{ action: "modify", args }` to change its arguments, `{ action: "ask", message }` to need a human,
 * `{ action: "allow" }` to approve it, or nothing at all to have no opinion.
 */
export default definePlugin({
  name: "{{pluginName}}",
  version: "0.1.0",
  description: "Blocks shell commands that delete everything from the filesystem root",
  hooks: {
    pre_tool_call(call) {
      const command = call.args.command;
      if (typeof command === "string" && /\brm\s+-rf\s+\/(\s|$)/.test(command))
        return { action: "block", message: "refusing to delete everything from the filesystem root (rm -rf /)" };
    },
  },
});
