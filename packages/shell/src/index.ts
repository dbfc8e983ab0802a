export { analyze, isCommandFlag, shells, type Analysis, type Invocation } from "./invocations.js";
export type { AnalysisEnvironment } from "./shell-state.js";
export { parseScript, type Command, type ParseResult, type Pipeline, type Redirect, type Script, type SimpleCommand, type Word } from "./parse.js";
export { maskQuoted } from "./lex.js";
export { knownInputs, stdinTexts } from "./static-text.js";
export { unwrap, type Unwrapped } from "./unwrap.js";
export { gitWords, type GitWords } from "./git-alias.js";
export { normalizePath } from "./normalize-path.js";
export { simpleCommands, type SimpleCommands } from "./simple-commands.js";
