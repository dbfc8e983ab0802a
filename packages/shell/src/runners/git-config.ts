/**
 * What a git configuration key does with its value: most keys are data, some name a command git runs
 * (`core.pager`, `diff.<driver>.textconv`, `alias.<name>=!…`), some make git run what this reader cannot
 * see (`core.hooksPath`, `include.path`, `protocol.ext.allow`). Keys of sections not read here are unknown.
 */

export type KeyEffect = { kind: "inert" } | { kind: "code"; code: string } | { kind: "unknown" };

// Sections whose every key is data to git (a value is a name, a number, a switch or a path to a data file).
const inertSections = new Set(
  "user color advice i18n column help pack index blame status branch tag commit pull push fetch rebase format log am apply checkout clone feature gc init protocol http transfer merge diff core submodule maintenance grep rerere repack receive uploadpack sparse credential remote alias pager sequence gpg interactive mergetool difftool sendemail imap hook trace2 fsck fsckobjects notes stash worktree reset rm mailinfo mailmap versionsort tar blame showbranch instaweb lfs filter".split(
    " ",
  ),
);

// Keys (lower case, subsection as `*`) whose value is a shell command git runs.
const codeKeys = new Set([
  "core.pager",
  "core.editor",
  "core.sshcommand",
  "core.fsmonitor",
  "core.askpass",
  "core.gitproxy",
  "core.alternaterefscommand",
  "sequence.editor",
  "diff.external",
  "diff.*.textconv",
  "diff.*.command",
  "merge.*.driver",
  "filter.*.clean",
  "filter.*.smudge",
  "filter.*.process",
  "credential.helper",
  "credential.*.helper",
  "gpg.program",
  "gpg.*.program",
  "interactive.difffilter",
  "mergetool.*.cmd",
  "mergetool.*.path",
  "difftool.*.cmd",
  "difftool.*.path",
  "sendemail.tocmd",
  "sendemail.cccmd",
  "sendemail.headercmd",
  "sendemail.sendmailcmd",
  "sendemail.smtpserver",
  "imap.tunnel",
  "hook.*.command",
  "uploadpack.packobjectshook",
  "remote.*.uploadpack",
  "remote.*.receivepack",
  "remote.*.proxy",
  "instaweb.httpd",
  "lfs.standalonetransferagent",
  "lfs.customtransfer.*.path",
]);

// Keys that make git run something this reader cannot see: a folder of hooks, another config file, a transport.
const unknownKeys = [
  /^core\.hookspath$/,
  /^core\.worktree$/,
  /^include\.path$/,
  /^includeif\..*\.path$/,
  /^protocol\.(.*\.)?allow$/,
  /^init\.templatedir$/,
  /^safe\.(directory|barerepository)$/,
  /^remote\..*\.vcs$/,
  /^url\./,
  /^submodule\..*\.update$/,
  /^lfs\..*\.(path|args)$/,
  /^browser\..*\.(cmd|path)$/,
  /^man\..*\.(cmd|path)$/,
  /^web\.browser$/,
];

// Keys where a switch turns the command off: `core.fsmonitor=false`, `pager.log=false`.
const switches = /^(true|false|yes|no|on|off|1|0|)$/i;

/** What `git -c key=value` (or a config write of it) does. Section and variable names are case-insensitive; subsections are not. */
export function configKeyEffect(key: string, value: string): KeyEffect {
  const parts = key.split(".");
  if (parts.length < 2) return { kind: "unknown" };
  const section = parts[0]!.toLowerCase();
  const variable = parts[parts.length - 1]!.toLowerCase();
  const lower = parts.length === 2 ? `${section}.${variable}` : `${section}.${parts.slice(1, -1).join(".")}.${variable}`;
  const pattern = parts.length === 2 ? lower : `${section}.*.${variable}`;
  if (unknownKeys.some((unknown) => unknown.test(lower))) return { kind: "unknown" };
  if (section === "alias") return value.startsWith("!") ? { kind: "code", code: value.slice(1) } : { kind: "inert" };
  if (section === "pager") return switches.test(value) ? { kind: "inert" } : { kind: "code", code: value };
  if (codeKeys.has(pattern) || codeKeys.has(lower)) {
    if (value === "" || (switches.test(value) && (lower === "core.fsmonitor" || pattern === "filter.*.process"))) return { kind: "inert" };
    return { kind: "code", code: lower.startsWith("credential.") && value.startsWith("!") ? value.slice(1) : value };
  }
  return inertSections.has(section) ? { kind: "inert" } : { kind: "unknown" };
}
