/**
 * GNU parallel's input sources written on the line: `parallel rm -rf {} ::: build dist` runs `rm -rf build`
 * and `rm -rf dist`. Each `:::` starts a source (the jobs are every combination of their values), `:::+`
 * pairs its values with the previous source's. `::::` reads a file, so the jobs are not known then.
 */

/** The command parallel runs (its words, placeholders unreplaced) and the input values of each job. */
export interface ParallelJobs {
  command: readonly string[];
  jobs: readonly (readonly string[])[];
}

/** More jobs than this are not read one by one: the input counts as unknown. */
const maxParallelJobs = 64;

const separator = /^::::?\+?$/;
// Options that change how the input is split or where it comes from: the jobs are not known then.
const inputOptions = /^(-a|--arg-file|--a|-C|--colsep|--col|--pipe|--pipepart|--header|-E|--eof|-d|--delimiter|--null|-0|--trim|--tag|--xapply|--link)/;
// Options whose value may hold `:::`-looking text are not a concern: a value never starts with `:::`.

/**
 * The jobs of `parallel <options> <command…> ::: …`, given the words after parallel's options and the options
 * themselves; undefined when the line has no `:::` source or the jobs cannot be known (a file, `--colsep`,
 * too many).
 */
export function parallelJobs(rest: readonly string[], options: readonly string[]): ParallelJobs | undefined {
  const first = rest.findIndex((word) => separator.test(word));
  if (first === -1 || options.some((option) => inputOptions.test(option))) return undefined;
  let jobs: string[][] | undefined;
  let index = first;
  while (index < rest.length) {
    const marker = rest[index]!;
    if (marker.startsWith("::::")) return undefined; // a file of inputs
    let end = index + 1;
    while (end < rest.length && !separator.test(rest[end]!)) end++;
    const values = rest.slice(index + 1, end);
    if (jobs === undefined) jobs = values.map((value) => [value]);
    else if (marker === ":::+") {
      const paired = jobs;
      jobs = paired.slice(0, Math.min(paired.length, values.length)).map((job, at) => [...job, values[at]!]);
    } else {
      if (jobs.length * values.length > maxParallelJobs) return undefined;
      const product: string[][] = [];
      for (const job of jobs) for (const value of values) product.push([...job, value]);
      jobs = product;
    }
    if (jobs.length > maxParallelJobs) return undefined;
    index = end;
  }
  return { command: rest.slice(0, first), jobs: jobs ?? [] };
}

// `{}`, `{.}`, `{/}`, `{//}`, `{/.}`, `{#}`, `{%}`, and `{2}`, `{2.}`, … for the second source.
const replacement = /\{(\d*)(\.|\/|\/\/|\/\.)?\}|\{[#%]\}/g;

/**
 * The shell text each job runs. parallel joins the command's words with spaces and quotes the input, so
 * `parallel bash -c 'rm -rf {}' ::: /` is really `bash -c rm -rf /`; as meant (`-q`), it is `bash -c 'rm -rf /'`.
 * Both readings are returned. With no command, each input is itself a command line.
 */
export function parallelScripts({ command, jobs }: ParallelJobs, placeholder: string | undefined): string[] {
  const scripts: string[] = [];
  for (const job of jobs) {
    if (command.length === 0) {
      scripts.push(job.join(" "));
      continue;
    }
    const replaced = (word: string, quoteValue: (text: string) => string) => {
      let text = placeholder === undefined || placeholder === "{}" ? word : word.replaceAll(placeholder, quoteValue(job.join(" ")));
      text = text.replace(replacement, (whole, position: string, modifier: string | undefined) => {
        if (whole === "{#}" || whole === "{%}") return "1";
        const values = position === "" ? job : [job[Number(position) - 1] ?? ""];
        return values.map((value) => quoteValue(modified(value, modifier))).join(" ");
      });
      return text;
    };
    const hasReplacement = command.some((word) => (placeholder !== undefined && word.includes(placeholder)) || new RegExp(replacement.source).test(word));
    const tail = hasReplacement ? [] : job;
    scripts.push([...command.map((word) => replaced(word, quote)), ...tail.map(quote)].join(" "));
    scripts.push([...command.map((word) => quote(replaced(word, (text) => text))), ...tail.map(quote)].join(" "));
  }
  return scripts;
}

/** `{.}` drops the extension, `{/}` keeps the base name, `{//}` the folder, `{/.}` the base name without extension. */
function modified(value: string, modifier: string | undefined): string {
  if (modifier === undefined) return value;
  const slash = value.lastIndexOf("/");
  if (modifier === "//") return slash === -1 ? "." : slash === 0 ? "/" : value.slice(0, slash);
  const base = modifier.startsWith("/") ? value.slice(slash + 1) : value;
  if (modifier === "/") return base;
  const dot = base.lastIndexOf(".");
  return dot > base.lastIndexOf("/") + 1 ? base.slice(0, dot) : base;
}

function quote(part: string): string {
  return /^[\w@%+=:,./-]+$/.test(part) ? part : `'${part.replaceAll("'", `'\\''`)}'`;
}
