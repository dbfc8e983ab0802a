/**
 * Builtins whose options make bash run code, or a name run another program, out of sight of the reader:
 * `hash -p /bin/rm ls` makes `ls` run rm, `enable -f x.so ls` loads a builtin from a library,
 * `mapfile -C 'cmd'` and `compgen -C 'cmd'` evaluate a callback, `compgen -F f` calls a function, and
 * `compgen -W '$(cmd)'` expands its word list again, substitutions included.
 */
export const runsOrRebinds = new Set(["hash", "enable", "mapfile", "readarray", "compgen"]);

// The option letters that hand each builtin code or a program, with what they do.
const codeOptions: Record<string, { letters: string; effect: string }> = {
  hash: { letters: "p", effect: "makes a name run another program, which this reader does not follow" },
  enable: { letters: "f", effect: "loads a builtin from a library, whose code is not read here" },
  mapfile: { letters: "C", effect: "runs a callback as code for each line it reads, which is not read here" },
  readarray: { letters: "C", effect: "runs a callback as code for each line it reads, which is not read here" },
  compgen: { letters: "CF", effect: "runs a command or a function to make its words, which is not read here" },
};

export function builtinOptionProblems(name: string, args: readonly string[]): string[] {
  const options = codeOptions[name];
  if (options === undefined) return [];
  for (const [index, arg] of args.entries()) {
    if (arg === "--") break;
    const wordList = name === "compgen" && arg.startsWith("-W") ? (arg.length > 2 ? arg.slice(2) : args[index + 1]) : undefined;
    if (wordList !== undefined && /[$`]/.test(wordList)) return ["compgen -W expands its word list again, and the code in it is not read here"];
    // `-p`, `-lp`, `-C cb`, `-Ccb`: an option word is a dash and letters, one of which may take the rest as its value.
    if (!arg.startsWith("-")) continue;
    const letter = [...arg.slice(1)].find((char) => options.letters.includes(char));
    if (letter !== undefined) return [`${name} -${letter} ${options.effect}`];
  }
  return [];
}
