import { describe, expect, it } from "vitest";
import { checkCommand } from "./check.js";
import { resolveOptions } from "./options.js";

// Other deleters and destroyers (issue #19): the same fixed machine as check.test.ts.
const environment = { projectRoot: "/home/dev/project", home: "/home/dev" };
const guard = resolveOptions({}, environment).guard;
const ruleOf = (command: string) => checkCommand(command, guard).violation?.rule ?? "allow";

type Case = [command: string, rule: string];

function table(name: string, cases: readonly Case[]) {
  describe(name, () => {
    it.each(cases)("%s → %s", (command, rule) => {
      expect(ruleOf(command)).toBe(rule);
    });
  });
}

table("find: a filtered delete in the project root deletes some files, an unfiltered one the project", [
  ["find . -name '*.o' -delete", "allow"],
  ["find . -iname '*.PYC' -delete", "allow"],
  ["find . -path './build/*' -delete", "allow"],
  ["find . -type d -empty -delete", "allow"],
  ["find . -type f -name '*.tmp' -delete", "allow"],
  ["find -name '*.orig' -delete", "allow"],
  ["find . -regex '.*\\.bak' -delete", "allow"],
  ["find . -type d -name node_modules -prune -exec rm -rf {} +", "allow"],
  ["find . -name '.DS_Store' -exec rm {} \\;", "allow"],
  ["find /home/dev/project -name '*.log' -delete", "allow"],
  ["find . -delete", "rm-project"],
  ["find . -type f -delete", "rm-project"],
  ["find . -type f -exec rm {} +", "rm-project"],
  ["find . -mtime +3 -delete", "rm-project"],
  ["find . -name '*' -delete", "rm-project"],
  ["find . -regex '.*' -delete", "rm-project"],
  ["find . ! -name keep -delete", "rm-project"],
  ["find . -not -name keep -delete", "rm-project"],
  ["find . -name x -o -delete", "rm-project"],
  ["find . -name '*.o' -or -type f -delete", "rm-project"],
  ["find / -name '*.o' -delete", "rm-root"],
  ["find /etc -name '*.conf' -delete", "rm-system"],
  ["find ~ -name '*.bak' -delete", "rm-home"],
  ["find .. -name '*.o' -delete", "rm-home"],
  ["find .git -name '*.pack' -delete", "rm-project"],
]);

table("archivers and sync tools that delete their sources or targets", [
  ["tar --remove-files -czf x.tgz ~", "rm-home"],
  ["tar -cf /dev/null --remove-files /etc", "rm-system"],
  ["tar czf x.tgz --remove-files /", "rm-root"],
  ["tar -C / --remove-files -cf /tmp/x.tar etc", "rm-system"],
  ["tar --directory=/ --remove-files -cf /tmp/x.tar home/dev", "rm-home"],
  ["tar --remove-files -cf backup.tar .", "rm-project"],
  ["tar --remove-files -cf /tmp/x.tar /opt/data", "rm-outside-project"],
  ["sudo tar --remove-files -cJf /tmp/all.txz /usr", "rm-system"],
  ["gtar --remove-files -cf x.tar ~/", "rm-home"],
  ["bsdtar --remove-files -cf x.tar /var", "rm-system"],
  ["zip -rm a.zip ~", "rm-home"],
  ["zip -r -m a.zip /etc", "rm-system"],
  ["zip --move -r a.zip .", "rm-project"],
  ["zip -9rm /tmp/a.zip /", "rm-root"],
  ["7z a -sdel x.7z /home", "rm-system"],
  ["7za a -sdel x.7z ~", "rm-home"],
  ["7zz a x.7z -sdel /", "rm-root"],
  ["rsync -a --delete empty/ ~/", "rm-home"],
  ["rsync --delete-before -r /tmp/e/ /", "rm-root"],
  ["rsync -a --delete-after src/ /etc/", "rm-system"],
  ["rsync -a --del empty/ .", "rm-project"],
  ["rsync -a --delete-excluded --exclude '*.o' src/ /usr/local", "rm-system"],
  ["rsync --remove-source-files -r ~/ /tmp/x", "rm-home"],
  ["rsync -av --remove-source-files / /mnt/backup", "rm-root"],
  ["rsync -a --delete src/ /opt/mirror", "rm-outside-project"],
  ["rsync -e ssh -a --delete empty/ ~", "rm-home"],
  ["tar -czf out.tgz src", "allow"],
  ["tar -czf /tmp/home.tgz ~", "allow"],
  ["tar czf backup.tgz /etc", "allow"],
  ["tar --remove-files -czf out.tgz build", "allow"],
  ["tar -xzf x.tgz -C /tmp/out", "allow"],
  ["zip -r a.zip ~", "allow"],
  ["zip -m logs.zip build/a.log build/b.log", "allow"],
  ["7z a x.7z /home", "allow"],
  ["7z a -sdel x.7z build", "allow"],
  ["rsync -a --delete build/ dist/", "allow"],
  ["rsync -a --delete ./dist/ /tmp/preview/", "allow"],
  ["rsync -a --delete dist/ deploy@host:/srv/www/", "allow"],
  ["rsync -a --delete dist/ rsync://host/module/", "allow"],
  ["rsync -a ~/ /tmp/backup", "allow"],
  ["rsync -a / /mnt/backup", "allow"],
  ["rsync --remove-source-files -a build/ /tmp/x", "allow"],
]);

table("npm deleters, also fetched by npx, pnpm dlx, yarn dlx, bunx and npm exec", [
  ["npx rimraf /", "rm-root"],
  ["npx -y rimraf ~", "rm-home"],
  ["npx --yes rimraf /etc", "rm-system"],
  ["pnpm dlx rimraf /etc", "rm-system"],
  ["yarn dlx rimraf /", "rm-root"],
  ["bunx del-cli ~", "rm-home"],
  ["bun x rimraf ~", "rm-home"],
  ["npm exec -- rimraf /", "rm-root"],
  ["npm x rimraf ~", "rm-home"],
  ["npm exec --package=rimraf -- rimraf /", "rm-root"],
  ["npx trash-cli ~", "rm-home"],
  ["npx rimraf@5 /", "rm-root"],
  ["npx shx rm -rf /", "rm-root"],
  ["rimraf ~", "rm-home"],
  ["del /usr", "rm-system"],
  ["trash ~", "rm-home"],
  ["npx rimraf .", "rm-project"],
  ["npx rimraf /opt/x", "rm-outside-project"],
  ["npx rimraf dist", "allow"],
  ["npx rimraf node_modules build", "allow"],
  ["pnpm dlx rimraf ./coverage", "allow"],
  ["npm exec -- rimraf dist", "allow"],
  ["npx shx rm -rf dist", "allow"],
  ["npx shx ls /", "allow"],
  ["npx rimraf --help", "allow"],
  ["npm exec -- tsc -p .", "allow"],
  ["npx prettier --write /", "allow"],
]);
