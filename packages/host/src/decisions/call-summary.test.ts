import { describe, expect, it } from "vitest";
import { callSummary, maskSecrets, summaryLength } from "./call-summary.js";

describe("maskSecrets: recognisable secrets become ***", () => {
  it.each([
    ["curl -H 'Authorization: Bearer abcdefghijklmnop1234' https://x", "abcdefghijklmnop1234"],
    ["export OPENAI_API_KEY=sk-proj-abcdefghijklmnopqrstuvwx", "sk-proj-abcdefghijklmnopqrstuvwx"],
    ["OPENAI_API_KEY=whatever-value-here npm test", "whatever-value-here"],
    ["DB_PASSWORD='hunter2 with spaces' ./migrate", "hunter2 with spaces"],
    ['psql "postgres://app:s3cr3t@db.internal/app"', "s3cr3t"],
    ["git clone https://ada:ghp_abcdefghijklmnopqrstuvwxyz0123@github.com/x/y", "ghp_abcdefghijklmnopqrstuvwxyz0123"],
    ["gh auth login --with-token ghp_abcdefghijklmnopqrstuvwxyz0123", "ghp_abcdefghijklmnopqrstuvwxyz0123"],
    ["npm publish --//registry.npmjs.org/:_authToken=npm_abcdefghijklmnopqrstuvwxyz0123456789", "npm_abcdefghijklmnopqrstuvwxyz0123456789"],
    ["aws configure set aws_access_key_id AKIAABCDEFGHIJKLMNOP", "AKIAABCDEFGHIJKLMNOP"],
    ["curl 'https://maps.googleapis.com/x?key=AIzaSyA1234567890abcdefghijklmnopqrstu'", "AIzaSyA1234567890abcdefghijklmnopqrstu"],
    ["slack-cli --token=xoxb-1234567890-abcdefghij", "xoxb-1234567890-abcdefghij"],
    ["stripe charges list --api-key sk_live_abcdefghijklmnop1234", "sk_live_abcdefghijklmnop1234"],
    ["echo eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U", "eyJhbGciOiJIUzI1NiJ9"],
    ["printf '-----BEGIN OPENSSH PRIVATE KEY-----\\nb3BlbnNzaC1rZXktdjEAAAAA\\n-----END OPENSSH PRIVATE KEY-----' > k", "b3BlbnNzaC1rZXktdjEAAAAA"],
    ['{"client_secret": "abc123def456"}', "abc123def456"],
    ["mysql -u root --password=topsecret db", "topsecret"],
    ["glab auth login --token glpat-abcdefghijklmnopqrst", "glpat-abcdefghijklmnopqrst"],
  ])("%s hides %s", (text, secret) => {
    const masked = maskSecrets(text);
    expect(masked).not.toContain(secret);
    expect(masked).toContain("***");
  });

  it.each(["git commit -m 'fix the auth bug'", "git log --author=ada", "npm run build -- --max_tokens 100", "cat src/token.ts", "ls ~/.ssh"])(
    "%s is left as it is",
    (text) => {
      expect(maskSecrets(text)).toBe(text);
    },
  );
});

describe("callSummary: what a call ran, on one line", () => {
  it("a shell call's command lines, every field the shell runs", () => {
    expect(callSummary({ name: "Bash", args: { command: "npm test\n  && git status" } })).toBe("npm test && git status");
    expect(callSummary({ name: "exec", kind: "shell", args: { argv: ["git", "status"] } })).toContain("git status");
  });

  it("the path, URL or query a call names, else its first short string", () => {
    expect(callSummary({ name: "Read", args: { file_path: "/p/src/a.ts", limit: 10 } })).toBe("/p/src/a.ts");
    expect(callSummary({ name: "WebFetch", args: { prompt: "summarise", url: "https://x.org/a" } })).toBe("https://x.org/a");
    expect(callSummary({ name: "run_sql", args: { sql: "select 1" } })).toBe("select 1");
    expect(callSummary({ name: "notify", args: { channel: "#ops", count: 3 } })).toBe("#ops");
    expect(callSummary({ name: "noop", args: {} })).toBeUndefined();
  });

  it("masked before it is cut: a secret at the cut is never half shown", () => {
    const secret = "sk-proj-abcdefghijklmnopqrstuvwxyz0123456789";
    const command = `${"x".repeat(summaryLength - 20)} OPENAI_API_KEY=${secret} tail`;
    const summary = callSummary({ name: "Bash", args: { command } })!;
    expect(summary.length).toBeLessThanOrEqual(summaryLength);
    expect(summary.endsWith("…")).toBe(true);
    for (let cut = 6; cut <= secret.length; cut++) expect(summary).not.toContain(secret.slice(0, cut).slice(-6));
  });

  it("a 10 KB line is cut to one line's worth", () => {
    const summary = callSummary({ name: "Bash", args: { command: "echo hi; ".repeat(1200) } })!;
    expect(summary.length).toBe(summaryLength);
  });
});
