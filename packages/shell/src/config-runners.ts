import type { Invocation } from "./invocations.js";

/**
 * The configuration files a program runs code from (a Makefile's recipes, package.json's scripts, git's
 * hooks, a login shell's profile, pytest's conftest.py): a name alone is that file in any folder, a name
 * with a `/` is that path (`~/` the home folder), one ending in `/` any file under that folder. A runner
 * run after the line may have written one of them runs what the line wrote, which is not read here.
 */
export interface ConfigFiles {
  readonly names: readonly string[];
  readonly extensions: readonly string[];
}

const shellStartup = [
  ...[".bashrc", ".bash_profile", ".bash_login", ".profile", ".bash_logout", ".bash_aliases", ".zshrc", ".zprofile", ".zlogin", ".kshrc", ".mkshrc", ".shrc"],
  ...["/etc/profile", "/etc/profile.d/", "/etc/bash.bashrc", "/etc/bashrc", "/etc/zsh/"],
];
// node_modules/: the packages' own scripts and bins (`npm test` runs node_modules/.bin/vitest).
const npmConfig = ["package.json", ".npmrc", "~/.npmrc", "node_modules/"];
const pythonProject = ["setup.py", "setup.cfg", "pyproject.toml"];

const runnerConfigs = new Map<string, ConfigFiles>([
  ...["make", "gmake", "bmake"].map((name): [string, ConfigFiles] => [name, { names: ["Makefile", "makefile", "GNUmakefile"], extensions: [".mk", ".make"] }]),
  ["npm", { names: npmConfig, extensions: [] }],
  ["npx", { names: npmConfig, extensions: [] }],
  ["pnpm", { names: [...npmConfig, "pnpm-workspace.yaml", ".pnpmfile.cjs", ".pnpmfile.mjs"], extensions: [] }],
  ["pnpx", { names: npmConfig, extensions: [] }],
  ["yarn", { names: [...npmConfig, ".yarnrc", ".yarnrc.yml", ".pnp.cjs"], extensions: [] }],
  ["bun", { names: [...npmConfig, "bunfig.toml"], extensions: [] }],
  ["bunx", { names: [...npmConfig, "bunfig.toml"], extensions: [] }],
  ["deno", { names: ["deno.json", "deno.jsonc", "package.json"], extensions: [] }],
  ["git", { names: [".gitconfig", "~/.config/git/config", ".git/hooks/", ".husky/", ".gitattributes", "lefthook.yml"], extensions: [] }],
  ...["pip", "pip3", "pipx", "uv", "poetry", "hatch", "pdm"].map((name): [string, ConfigFiles] => [name, { names: pythonProject, extensions: [] }]),
  ...["pytest", "py.test"].map((name): [string, ConfigFiles] => [name, { names: ["conftest.py", "pytest.ini", "tox.ini", ...pythonProject], extensions: [] }]),
  ["tox", { names: ["tox.ini", ...pythonProject], extensions: [] }],
  ["nox", { names: ["noxfile.py"], extensions: [] }],
  ...["python", "python3"].map((name): [string, ConfigFiles] => [name, { names: ["sitecustomize.py", "usercustomize.py"], extensions: [".pth"] }]),
  ["cargo", { names: ["build.rs", "Cargo.toml", ".cargo/config.toml", ".cargo/config"], extensions: [] }],
  ["direnv", { names: [".envrc", ".env"], extensions: [] }],
  ["rake", { names: ["Rakefile", "rakefile", "Rakefile.rb", "rakefile.rb"], extensions: [".rake"] }],
  ["bundle", { names: ["Gemfile"], extensions: [] }],
  ["just", { names: ["justfile", "Justfile", ".justfile"], extensions: [] }],
  ...["task", "go-task"].map((name): [string, ConfigFiles] => [
    name,
    { names: ["Taskfile.yml", "Taskfile.yaml", "taskfile.yml", "taskfile.yaml", "Taskfile.dist.yml"], extensions: [] },
  ]),
  ...["gradle", "gradlew", "./gradlew"].map((name): [string, ConfigFiles] => [
    name,
    { names: ["build.gradle", "build.gradle.kts", "settings.gradle", "settings.gradle.kts", "init.gradle"], extensions: [] },
  ]),
  ["mvn", { names: ["pom.xml", ".mvn/"], extensions: [] }],
  ["cmake", { names: ["CMakeLists.txt"], extensions: [".cmake"] }],
  ["meson", { names: ["meson.build"], extensions: [] }],
  ["ninja", { names: ["build.ninja"], extensions: [] }],
  ["composer", { names: ["composer.json"], extensions: [] }],
  ["pre-commit", { names: [".pre-commit-config.yaml"], extensions: [] }],
  ["ssh", { names: ["~/.ssh/config", "~/.ssh/rc"], extensions: [] }],
  ...["su", "login", "runuser"].map((name): [string, ConfigFiles] => [name, { names: shellStartup, extensions: [] }]),
]);

const shells = new Set(["bash", "sh", "zsh", "ksh", "mksh", "dash", "ash", "yash"]);

const makes = new Set(["make", "gmake", "bmake"]);

// The last segment of every configuration file above, and their extensions: a line that wrote none of them
// needs no runner looked at, except a make told which file to read (`make -f x.txt`).
const configNames = new Set([...shellStartup, ".zshenv", ...[...runnerConfigs.values()].flatMap(({ names }) => names.map(lastSegmentOf))]);
const configExtensions = new Set([...runnerConfigs.values()].flatMap(({ extensions }) => extensions));

function lastSegmentOf(path: string): string {
  const trimmed = path.endsWith("/") ? path.slice(0, -1) : path;
  return trimmed.slice(trimmed.lastIndexOf("/") + 1);
}

/** Whether a file of this name (a last segment, and its extension) may be some runner's configuration, or a folder of them (`hooks`). */
export function isConfigName(name: string, extension: string): boolean {
  return configNames.has(name) || configExtensions.has(extension);
}

/** Whether the program may be told on its command line which configuration file to read (`make -f x.txt`). */
export function namesItsConfig(name: string): boolean {
  return makes.has(name);
}

/**
 * The configuration files an invocation runs code from, its wrappers' included (`npx x` reads package.json;
 * `sudo -i`, which `unwrap` leaves without a command, starts a login shell); undefined when none reads any.
 */
export function configsRunBy(invocation: Invocation): ConfigFiles | undefined {
  const own = ownConfigs(invocation);
  if (invocation.wrappers.length === 0) return own;
  const names = [...(own?.names ?? [])];
  const extensions = [...(own?.extensions ?? [])];
  for (const wrapper of invocation.wrappers) {
    const configs = wrapper === "sudo" && invocation.name === "" ? { names: shellStartup, extensions: [] } : runnerConfigs.get(wrapper);
    if (configs === undefined) continue;
    names.push(...configs.names);
    extensions.push(...configs.extensions);
  }
  return names.length === 0 && extensions.length === 0 ? undefined : { names, extensions };
}

function ownConfigs(invocation: Invocation): ConfigFiles | undefined {
  const { name, args } = invocation;
  if (shells.has(name)) return shellConfigs(invocation);
  if (name === "sudo")
    return args.some((arg) => /^-[A-Za-z]*[is]/.test(arg) || arg === "--login" || arg === "--shell") ? { names: shellStartup, extensions: [] } : undefined;
  const configs = runnerConfigs.get(name);
  if (configs === undefined || !makes.has(name)) return configs;
  // `make -f x.mk`, `--file=x.mk`, `--makefile x.mk`: the makefile it is told to read.
  const files = makefilesNamed(args);
  return files.length === 0 ? configs : { names: [...configs.names, ...files], extensions: configs.extensions };
}

/**
 * zsh reads `~/.zshenv` for every shell; an interactive or login shell (`-i`, `-l`, `--login`, or no script
 * and no `-c`, which is interactive on a terminal) reads its startup files.
 */
function shellConfigs(invocation: Invocation): ConfigFiles | undefined {
  const { name, args } = invocation;
  const always = name === "zsh" ? [".zshenv"] : [];
  const startup =
    args.some((arg) => /^-[A-Za-z]*[il]/.test(arg) || arg === "--login" || arg === "--interactive") ||
    !args.some((arg) => !arg.startsWith("-") || /^-[A-Za-z]*c/.test(arg));
  if (!startup) return always.length === 0 ? undefined : { names: always, extensions: [] };
  return { names: [...always, ...shellStartup], extensions: [] };
}

function makefilesNamed(args: readonly string[]): string[] {
  const files: string[] = [];
  for (let index = 0; index < args.length; index++) {
    const arg = args[index]!;
    if (arg === "-f" || arg === "--file" || arg === "--makefile") files.push(args[++index] ?? "");
    else if (arg.startsWith("--file=") || arg.startsWith("--makefile=")) files.push(arg.slice(arg.indexOf("=") + 1));
    else if (/^-f./.test(arg)) files.push(arg.slice(2));
  }
  return files.filter((file) => file !== "");
}
