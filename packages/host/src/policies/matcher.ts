/**
 * A hook's `matcher`: a regular expression that must match the whole tool name, in any case, as permission
 * rules match names (`bash|terminal` matches Claude Code's `Bash`). Absent, empty or `*` matches every tool
 * (as in Claude Code's hook config).
 */
export function compileMatcher(matcher: string | undefined): (toolName: string) => boolean {
  if (matcher === undefined || matcher === "" || matcher.trim() === "*") return () => true;
  const pattern = new RegExp(`^(?:${matcher})$`, "i");
  return (toolName) => pattern.test(toolName);
}
