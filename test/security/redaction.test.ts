/**
 * Issue 11 item 8: every secret form below, recorded by hooks:emit as a Bash command and its output, a plan item,
 * a prompt and the agent's last message, is absent from the raw bytes of every runtime file (the SQLite file, its
 * `-wal`, `events.ndjson`, `state.json`, pointers) and from the checkpoint hooks:recap re-injects; ordinary text
 * that only looks like a key/value pair survives.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { cleanupTemp, tempProject } from "../helpers.ts";
import { emitEvent, expectAbsentFromRuntime, recapText } from "./text-helpers.ts";

afterAll(cleanupTemp);

const JWT = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhbGljZS0xMjM0NTYifQ.c2lnbmF0dXJlLXZhbHVlLTEyMzQ1Ng";

/** [form, text holding the secret, the secret itself]. */
const FORMS: ReadonlyArray<readonly [string, string, string]> = [
  ["docker login --password", "docker login --password Dock3rPassw0rd registry.example.com", "Dock3rPassw0rd"],
  ["docker login -p", "docker login -u bob -p Dock3rPassw1rd registry.example.com", "Dock3rPassw1rd"],
  ["aws configure set aws_secret_access_key", "aws configure set aws_secret_access_key wJalrXUtnFEMIK7MDENGbPxRfiCYzzSECRET", "wJalrXUtnFEMIK7MDENGbPxRfiCYzzSECRET"],
  ["a JWT after --jwt", `grpcurl --jwt ${JWT} api.example.com`, "c2lnbmF0dXJlLXZhbHVlLTEyMzQ1Ng"],
  ["a JWT in a query string", `curl 'https://api.example.com/x?access=${JWT}'`, "eyJzdWIiOiJhbGljZS0xMjM0NTYifQ"],
  ["a Slack app token", "SLACK=xapp-1-A0123456789-1234567890123-abcdefabcdef0123 node bot.js", "abcdefabcdef0123"],
  ["a Slack webhook URL", "curl -X POST https://hooks.slack.com/services/T0AAAAAAA/B0BBBBBBB/cccccccccccccccccccccccc -d x", "cccccccccccccccccccccccc"],
  ["an npm token", "echo npm_abcdefghijklmnopqrstuvwxyz0123456789 | npm login", "npm_abcdefghijklmnopqrstuvwxyz0123456789"],
  ["an npmrc _authToken", "echo //registry.npmjs.org/:_authToken=NpmAuthT0ken42 >> .npmrc", "NpmAuthT0ken42"],
  ["curl --user=a:X", "curl --user=alice:CurlPassw0rd https://api.example.com", "CurlPassw0rd"],
  ["DB_PASS=", "DB_PASS=DbPassw0rd42 node server.js", "DbPassw0rd42"],
  ["ENCRYPTION_KEY=", "ENCRYPTION_KEY=EncKey9876543210 node server.js", "EncKey9876543210"],
  ["--passphrase", "gpg --batch --passphrase GpgPhrase777 -d secrets.gpg", "GpgPhrase777"],
  ["-passin pass:", "openssl rsa -in key.pem -passin pass:OpenSslPass55 -out plain.pem", "OpenSslPass55"],
  ["a Cookie header", "curl -H 'Cookie: session=C00kieSess10n; theme=dark' https://app.example.com", "C00kieSess10n"],
  ["a Set-Cookie header", "Set-Cookie: sid=SetC00kie99; Path=/; HttpOnly", "SetC00kie99"],
  ["an Azure SAS sig=", "az storage blob download --blob-url 'https://acct.blob.core.windows.net/c/f?sv=2022-11-02&sig=AzureSig%2Fabc%3D&se=2030'", "AzureSig"],
  ["a URL password holding @", "git clone https://deploy:p@ssw0rd-tail@git.example.com/org/repo.git", "ssw0rd-tail"],
];

describe("secrets are gone from every stored byte and from the recap", () => {
  test.each(FORMS)("%s", (_form, text, secret) => {
    const project = tempProject();
    const session = "sec-1";
    emitEvent(project, { hook_event_name: "UserPromptSubmit", prompt: `@qa check this: ${text}`, session_id: session });
    emitEvent(project, {
      hook_event_name: "PostToolUse",
      tool_name: "Bash",
      tool_input: { command: text },
      tool_response: { stdout: `running ${text}`, stderr: `failed: ${text}`, exit_code: 1 },
      session_id: session,
    });
    emitEvent(project, { hook_event_name: "PostToolUse", tool_name: "TodoWrite", tool_input: { todos: [{ content: `retry ${text}`, status: "pending" }] }, session_id: session });
    emitEvent(project, { hook_event_name: "Stop", last_assistant_message: `Done. I ran ${text}`, session_id: session });
    expectAbsentFromRuntime(project, [secret]);
    const checkpoint = recapText(project, session);
    // The checkpoint re-injects the command, the plan item and the message: each with the secret redacted.
    expect(checkpoint).toContain("[REDACTED]");
    expect(checkpoint).not.toContain(secret);
  });
});

describe("ordinary text is not redacted", () => {
  const ORDINARY = [
    "git log -p --author=alice",
    "npm test",
    "docker login --password-stdin -u bob registry.example.com",
    "git push --force-with-lease origin main",
    "http://localhost:3000/api?mail=a@b.com",
    "aws configure set region us-east-1",
    "llm --max-tokens 200",
  ];
  test.each(ORDINARY)("%s", (text) => {
    const project = tempProject();
    emitEvent(project, { hook_event_name: "PostToolUse", tool_name: "TodoWrite", tool_input: { todos: [{ content: text, status: "pending" }] }, session_id: "s" });
    expect(recapText(project, "s")).toContain(`- [ ] ${text}`);
  });
});
