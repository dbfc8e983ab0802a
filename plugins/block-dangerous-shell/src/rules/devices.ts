import { isUnknown, normalizePath, type Invocation } from "@toolgate/shell";
import { interpreterCode, runsCode } from "./interpreter-code.js";
import { firstMessage, hasFlag, positionals, show, type Facts, type Rule } from "./rule.js";

// Files under /dev that are not disks: the null and random devices, terminals, the shell's own descriptors,
// shared memory, and bash's network paths. Everything else under /dev is read as a device (disks, partitions,
// `/dev/mapper/…`, `/dev/disk/by-id/…`, LVM's `/dev/<group>/<volume>`, memory): unknown is refused.
const notDisks =
  /^\/dev\/(null|zero|full|random|urandom|tty\w*|pts\/.*|ptmx|console|stdin|stdout|stderr|fd\/.*|shm(\/.*)?|mqueue(\/.*)?|log|kmsg|tcp\/.*|udp\/.*|hugepages(\/.*)?|cu\.\S+|ttyUSB\d+|ttyACM\d+|net\/tun|fuse|autofs|urandom|snd\/.*|dri\/.*|video\d+|input\/.*|cpu\/.*|bus\/usb\/.*)$/;
// `/sys/block/sda/…`, `/sys/class/block/…`: writing there removes, resets or reconfigures a disk.
const diskControl = /^\/sys\/(block|class\/block|devices\/.*\/block)(\/|$)/;
const writingRedirects = new Set([">", ">>", ">|", "&>", "&>>", "<>"]);

/** The path a word names, expanded and normalised against the command's folder: `/dev//sda`, `/./dev/sda`, `sda` after `cd /dev`. */
function resolved(path: string, cwd: string | undefined): string | undefined {
  if (path.startsWith("/")) return normalizePath(path);
  if (cwd === undefined || path === "") return undefined;
  return normalizePath(`${cwd}/${path}`);
}

/** Whether a word names a disk device (or a disk's control files) once resolved. */
function namesDevice(path: string, cwd: string | undefined): boolean {
  if (isRunTimeWord(path)) return false;
  const absolute = resolved(path, cwd);
  if (absolute === undefined) return false;
  return (absolute.startsWith("/dev/") && !notDisks.test(absolute)) || diskControl.test(absolute);
}

/** A word only known at run time: the reader's marker, or an expansion or substitution it left in place. */
function isRunTimeWord(word: string): boolean {
  return isUnknown(word) || word.includes("$") || word.includes("`");
}

/**
 * For programs whose whole job is to write a device (dd, shred, wipefs, mkfs, …): the operand names a
 * device, or it is only known at run time (`dd of=$DEV`), so it may be one.
 */
export function mayBeDevice(path: string, cwd: string | undefined): boolean {
  return isRunTimeWord(path) || namesDevice(path, cwd) || (cwd === undefined && !path.startsWith("/"));
}

/** What an invocation writes to a block device, if anything: the device. */
export function diskWritten(invocation: Invocation, facts: Facts): string | undefined {
  const { name, args, redirects, cwd } = invocation;
  // Indexed, not `find`: a shared reading's lists are frozen, where the built-ins are slow (`copyFrom`).
  for (let index = 0; index < redirects.length; index++) {
    const redirect = redirects[index]!;
    if (writingRedirects.has(redirect.operator) && namesDevice(redirect.target.text, cwd)) return redirect.target.text;
  }
  const target = deviceTargets.get(name);
  return target === undefined ? codeWritesDevice(invocation, facts) : target(args, cwd, name);
}

type DeviceTarget = (args: readonly string[], cwd: string | undefined, name: string) => string | undefined;

// Each program that can write a device without a redirect, with where it says which one. One lookup per
// command; the names are also what `Facts.where` lets through (`deviceWriters`).
const deviceTargets = new Map<string, DeviceTarget>();
function writers(names: string, target: DeviceTarget): void {
  for (const name of names.split(" ")) deviceTargets.set(name, target);
}
writers("dd dcfldd dc3dd", (args, cwd) => args.find((arg) => arg.startsWith("of=") && mayBeDevice(arg.slice(3), cwd))?.slice(3));
writers("shred wipefs blkdiscard sg_format nwipe", (args, cwd) => positionals(args).find((arg) => mayBeDevice(arg, cwd)));
// `fallocate -p`/`-z`/`-c` on a disk punches holes in it, zeroes or collapses a range: data gone.
writers("truncate tee fallocate", (args, cwd) => {
  for (let index = 0; index < args.length; index++) if (namesDevice(args[index]!, cwd)) return args[index];
  return undefined;
});
writers("find", (args, cwd) => {
  // `-fprint FILE`, `-fprint0 FILE`, `-fls FILE`, `-fprintf FILE FORMAT`: find writes its list there.
  const at = args.findIndex((arg, index) => index > 0 && /^-(fprint0?|fls|fprintf)$/.test(args[index - 1]!) && namesDevice(arg, cwd));
  return at === -1 ? undefined : args[at];
});
writers("cp install mv rsync ddrescue pv cat", (args, cwd, name) => {
  // The destination: `-t DIR`, `-o FILE` (pv), else the last operand (cp, ddrescue's second).
  const flag = args.findIndex((arg) => arg === "-t" || arg === "--target-directory" || (name === "pv" && arg === "-o"));
  if (flag !== -1) return namesDevice(args[flag + 1] ?? "", cwd) ? args[flag + 1] : undefined;
  if (name === "pv" || name === "cat") return undefined;
  const operands = positionals(args);
  const target = name === "ddrescue" ? operands[1] : operands.length >= 2 ? operands[operands.length - 1] : undefined;
  return target !== undefined && namesDevice(target, cwd) ? target : undefined;
});
writers("badblocks", (args, cwd) => (hasFlag(args, "w") || hasFlag(args, "n") ? positionals(args).find((arg) => mayBeDevice(arg, cwd)) : undefined));
writers("nvme", (args, cwd) =>
  /^(format|sanitize|write-zeroes|write|write-uncor)$/.test(args[0] ?? "") ? (args.find((arg) => namesDevice(arg, cwd)) ?? args[1]) : undefined,
);
writers("cryptsetup", (args, cwd) =>
  args.some((arg) => /^(luksFormat|erase|luksErase|reencrypt)$/.test(arg)) ? args.find((arg) => namesDevice(arg, cwd)) : undefined,
);
writers("mdadm", (args, cwd) =>
  args.some((arg) => /^(--create|-C|--build|-B|--zero-superblock)$/.test(arg)) ? args.find((arg) => namesDevice(arg, cwd)) : undefined,
);
writers("pvcreate pvremove zpool", (args, cwd, name) =>
  name !== "zpool" || /^(create|labelclear|add|replace|attach)$/.test(args[0] ?? "") ? args.find((arg) => namesDevice(arg, cwd)) : undefined,
);
writers("hdparm", (args, cwd) =>
  args.some((arg) => /^--(security-erase|security-erase-enhanced|trim-sector-ranges|write-sector|make-bad-sector|dco-restore)/.test(arg))
    ? args.find((arg) => namesDevice(arg, cwd))
    : undefined,
);

// Every name `diskWritten` reads the arguments of, taken from the one table.
export const deviceWriters: ReadonlySet<string> = new Set(deviceTargets.keys());

/** Whether `diskWritten` can find a device in a command of this name without a redirect (`Facts.where`). */
export function mayWriteDevice(name: string): boolean {
  return deviceWriters.has(name) || runsCode(name);
}

/** The device an interpreter one-liner writes, if any. */
function codeWritesDevice(invocation: Invocation, facts: Facts): string | undefined {
  const code = interpreterCode(invocation, facts);
  return code?.writes.find((write) => namesDevice(write.target, invocation.cwd))?.target;
}

const partitionToolNames = ["fdisk", "sfdisk", "cfdisk", "gdisk", "sgdisk", "cgdisk", "parted", "partx", "delpart", "addpart", "resizepart"];
const partitionTools = new Set(partitionToolNames);
// Flags that only read the partition table.
const readOnlyFlags: Record<string, RegExp> = {
  fdisk: /^(-l|--list|-x|--list-details|-V|--version|-h|--help|-s|--getsz)$/,
  sfdisk:
    /^(-l|--list|-d|--dump|-J|--json|-s|--show-size|-V|--verify|-g|--show-geometry|-F|--list-free|--list-types|-T|-r|--reorder-dry-run|-n|--no-act|--backup-pt-sectors|-h|--help|--version)$/,
  gdisk: /^(-l)$/,
  sgdisk: /^(-p|--print|-v|--verify|-i|--info|-O|--print-mbr|-P|--pretend|-b|--backup|-L|--list-types|-V|--version|-\?|--help)$/,
  parted: /^(-l|--list|-v|--version|-h|--help)$/,
  partx: /^(-s|--show|-l|--list|-r|--raw|-P|--pairs|-g|--noheadings|-o|--output|-b|--bytes)$/,
};
// parted commands that only read.
const partedReads = /^(print|p|unit|help|version|quit|[kMGT]i?B|s|B|%|cyl|chs|compact|free|all|devices|list)$/i;

/** fdisk, sfdisk, parted, gdisk, sgdisk, … pointed at a device, to change (not only print) its partition table. */
function editsPartitions(invocation: Invocation): boolean {
  const { name, args } = invocation;
  if (!partitionTools.has(name)) return false;
  const device = args.find((arg) => arg.startsWith("/dev/") || arg.startsWith("$") || isUnknown(arg));
  if (device === undefined) return false;
  const readOnly = readOnlyFlags[name];
  if (readOnly !== undefined && args.some((arg) => readOnly.test(arg) || (name === "sgdisk" && /^--(print|verify|info)/.test(arg)))) {
    // `sgdisk -p -Z /dev/sda` still zaps: a read-only flag counts only when no writing flag is with it.
    if (
      name !== "sgdisk" ||
      !args.some((arg) =>
        /^-[ZzodnNcCtuUAxgmGefhjk]$|^--(zap|zap-all|clear|delete|new|largest-new|change-name|typecode|partition-guid|disk-guid|mbrtogpt|gpttombr|randomize-guids|replicate|load-backup|move-second-header)/.test(
          arg,
        ),
      )
    )
      return false;
  }
  if (name === "parted") {
    const words = positionals(args, ["-a", "--align"]).filter((arg) => arg !== device);
    return words.length === 0 || !words.every((word) => partedReads.test(word));
  }
  return !(name === "partx" && args.every((arg) => arg === device || !arg.startsWith("-")));
}

export const partitionTableRule: Rule = {
  id: "partition-table",
  pack: "core",
  catastrophic: true,
  summary: "changing a disk's partition table (`fdisk /dev/sda`, `sfdisk`, `parted … mklabel`, `sgdisk -Z`, `gdisk`, `cfdisk`); listing it is fine",
  check: (facts) =>
    firstMessage(facts.named(partitionToolNames), (invocation) =>
      editsPartitions(invocation)
        ? `refusing to change a disk's partition table: ${show(invocation)} can make every filesystem on the disk unreadable. Only list partitions (\`fdisk -l\`, \`parted -l\`), or ask the user to do it.`
        : undefined,
    ),
};
