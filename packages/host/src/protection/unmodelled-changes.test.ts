import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resolveSettings } from "../settings.js";
import { PolicyProtection } from "./policy-protection.js";

// A program the protection has no model of is not taken to leave the policy alone: every path it names
// may be written, and a program that writes where it names no path changes the folder it writes into.

let root: string;
let protection: PolicyProtection;

beforeAll(async () => {
  root = realpathSync(mkdtempSync(join(tmpdir(), "toolgate-unmodelled-")));
  const project = join(root, "proj");
  mkdirSync(join(project, "plugins"), { recursive: true });
  mkdirSync(join(root, "home"));
  writeFileSync(join(project, "toolgate.config.json"), JSON.stringify({ plugins: [] }));
  protection = new PolicyProtection(await resolveSettings({ cwd: project, configFile: "toolgate.config.json" }), "block", join(root, "home"));
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

const decide = (command: string) => protection.check({ name: "bash", args: { command } })?.action ?? "allow";

const diffOf = (file: string) => `--- a/${file}\n+++ b/${file}\n@@ -1 +1 @@\n-a\n+b\n`;

describe("a program not modelled, naming the policy, may write it", () => {
  it.each([
    "sort -o toolgate.config.json notes.txt",
    "uniq notes.txt toolgate.config.json",
    "split -l1 notes.txt plugins/",
    "csplit -f plugins/x notes.txt 1",
    "ssh-keygen -f plugins/key",
    "gcc -o plugins/x main.c",
    "go build -o plugins/x ./cmd",
    "prettier --write toolgate.config.json",
    "eslint --fix plugins/",
    "yq -i .a=1 toolgate.config.json",
    "wget -O toolgate.config.json https://example.com/x",
    "wget -Otoolgate.config.json https://example.com/x",
    "curl -o plugins/x.mjs https://example.com/x",
    "curl -sSo plugins/x.mjs https://example.com/x",
    "git clone https://example.com/x plugins/evil",
    "git init plugins/evil",
    "git submodule add https://example.com/x plugins/evil",
    "git archive -o toolgate.config.json HEAD",
    "unzip x.zip -d plugins",
    "gunzip toolgate.config.json.gz",
    "gzip -d plugins/a.mjs.gz",
    "xz --decompress toolgate.config.json.xz",
  ])("%s", (command) => {
    expect(decide(command)).toBe("block");
  });
});

describe("a program that writes where it names no path changes the folder it writes into", () => {
  it.each([
    "tar -xf x.tar",
    "tar xvf x.tar",
    "tar --extract --file x.tar",
    "tar -xzf x.tgz -C plugins",
    "tar -x -f x.tar --directory=plugins",
    "bsdtar -xf x.tar",
    "unzip x.zip",
    "unzip -o x.zip",
    "7z x x.7z",
    "7z x x.7z -oplugins",
    "cpio -idv < x.cpio",
    "ar x lib.a",
    "jar xf x.jar",
    'docker run -v "$PWD:/w" node:20 sh -c "rm -rf /w/plugins"',
    "docker run --rm -v .:/w img",
    "docker run -v ./plugins:/p img",
    "docker run --mount type=bind,source=.,target=/w img",
    "docker run --mount=type=bind,src=.,dst=/w img",
    "podman run --volume=.:/w img",
    "patch -p1 < p.diff",
    "patch -p1 -d plugins < p.diff",
    "git apply p.diff",
    "git -C . apply p.diff",
    "git am < p.mbox",
    "git checkout-index -a -f",
    "git read-tree -u --reset HEAD",
    "curl -O https://example.com/toolgate.config.json",
    "curl -sSLO https://example.com/toolgate.config.json",
    "curl -O --output-dir plugins https://example.com/a.mjs",
    "curl -OJ https://example.com/download",
    "wget https://example.com/toolgate.config.json",
    "wget -P plugins https://example.com/a.mjs",
    "wget -r https://example.com/",
    "wget --content-disposition https://example.com/download",
    `patch -p1 <<'EOF'\n${diffOf("toolgate.config.json")}EOF`,
  ])("%s", (command) => {
    expect(decide(command)).toBe("block");
  });
});

// Ways past the first version of these classes: extractors and downloaders it did not know, a remote
// copy's name, a bash negated set, and a container mount spelled as Docker also reads it.
describe("unpacking, downloading or copying into the policy's folder, spelled another way, is refused", () => {
  it.each([
    "7zz x a.7z",
    "unrar x a.rar",
    "rar x a.rar",
    "lha x a.lzh",
    "arj x a.arj",
    "bsdcpio -i < a.cpio",
    "pax -rf a.pax",
    "jar --extract --file a.jar",
    "unar a.zip",
    "aunpack a.zip",
    "atool -x a.zip",
    "dtrx a.zip",
    "cabextract a.cab",
    "unsquashfs -f -d . a.sqfs",
    "curl -K download.cfg https://example.com/",
    "aria2c https://example.com/toolgate.config.json",
    "axel https://example.com/toolgate.config.json",
    "http --download https://example.com/toolgate.config.json",
    "scp -r host:plugins .",
    "scp host:toolgate.config.json .",
    "scp host:'*.json' .",
    "rsync -a host:plugins .",
    "rsync -a host::mod/plugins .",
    "sftp -P 22 host:'plugins*'",
    "rm -rf .[!.]*",
    "docker run -v=.:/w builder-image",
    "docker run --mount type=bind,Source=.,target=/w builder-image",
    "docker run --mount 'type=bind,\"source=.\",target=/w' builder-image",
    "docker run --mount type=volume,dst=/w,volume-opt=type=none,volume-opt=o=bind,volume-opt=device=. builder-image",
    "docker run -v .:/w:ro,rw builder-image",
  ])("%s", (command) => {
    expect(decide(command)).toBe("block");
  });
});

describe("reading the policy, or writing elsewhere, stays allowed", () => {
  it.each([
    "cat toolgate.config.json",
    "grep -rn pre_tool_call plugins",
    "ls -la plugins",
    "du -sh plugins",
    "tree plugins",
    "wc -l toolgate.config.json",
    "git diff toolgate.config.json",
    "git log -- plugins",
    "git checkout main",
    "tar -tf x.tar",
    "tar -cf x.tar src",
    "tar -xf x.tar -C build",
    "tar -xOf x.tar a.txt",
    "cd build && tar -xf ../x.tar",
    "unzip -l x.zip",
    "unzip x.zip -d vendor",
    "7z l x.7z",
    "jar tf x.jar",
    "docker run -v .:/w:ro img",
    "docker run --mount type=bind,source=.,target=/w,readonly img",
    "docker run -v /tmp/cache:/cache img",
    "docker run -v data:/data img",
    "7z x x.7z -ovendor",
    "curl -o out.json https://example.com/x",
    "curl -sSL https://example.com/install.sh",
    "curl -O https://example.com/data.json",
    "wget -O /tmp/x https://example.com/x",
    "wget https://example.com/data.csv",
    "wget -qO- https://example.com/x",
    "gcc -o build/app main.c",
    "go build -o bin/x ./cmd",
    "prettier --write src/",
    "patch -p1 -d vendor < p.diff",
    "patch --dry-run -p1 < p.diff",
    "git apply --check p.diff",
    "git apply --stat p.diff",
    "gunzip data.json.gz",
    "git clone https://example.com/x vendor/x",
    `patch -p1 <<'EOF'\n${diffOf("src/a.ts")}EOF`,
    "unrar l a.rar",
    "unar -o vendor a.zip",
    "cabextract -d vendor a.cab",
    "pax -w -f a.pax src",
    "aria2c -d vendor https://example.com/toolgate.config.json",
    "http https://example.com/toolgate.config.json",
    "scp host:notes.txt .",
    "scp -r host:dist ./out",
    "sftp host:notes.txt",
    "rm -rf .[!a-z]*",
    "docker run -v .:/w:ro alpine ls /w",
  ])("%s", (command) => {
    expect(decide(command)).toBe("allow");
  });
});

it("the refusal of a write to places not named says so, and names the way out", () => {
  const verdict = protection.check({ name: "bash", args: { command: "tar -xf x.tar" } });
  expect(verdict && "message" in verdict && verdict.message).toMatch(
    /writes files it does not name into a folder that holds toolgate's config file .*`tar -C dir`/,
  );
  const named = protection.check({ name: "bash", args: { command: "sort -o toolgate.config.json notes.txt" } });
  expect(named && "message" in named && named.message).toMatch(/would change toolgate's config file/);
});
