/**
 * Issue 11 item 8 and issue 25 item 2: every secret form below, recorded by hooks:emit as a Bash command and its
 * output, a plan item, a prompt and the agent's last message, is absent from the raw bytes of every runtime file (the
 * SQLite file, its `-wal`, `events.ndjson`, `state.json`, pointers) and from the checkpoint hooks:recap re-injects;
 * ordinary text that only looks like a key/value pair, a password option or a credential line survives.
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

/**
 * Issue 25's forms, by family: [family, [command or text, secrets it holds]…]. A family's forms are recorded in one
 * session, each as a Bash call whose output repeats it.
 */
const FAMILIES: ReadonlyArray<readonly [string, ReadonlyArray<readonly [string, readonly string[]]>]> = [
  [
    "SQL that sets a password",
    [
      [`mysql -e "CREATE USER 'app'@'%' IDENTIFIED BY 'S3cretSql1'"`, ["S3cretSql1"]],
      ["echo 'ALTER USER scott IDENTIFIED BY Tiger2x;' | sqlplus -s / as sysdba", ["Tiger2x"]],
      [`psql -c "CREATE ROLE app WITH LOGIN PASSWORD 'S3cretPg2'"`, ["S3cretPg2"]],
      [`psql -c "ALTER USER app WITH ENCRYPTED PASSWORD 'S3cretPg3'"`, ["S3cretPg3"]],
      [`sqlcmd -Q "CREATE LOGIN app WITH PASSWORD = N'S3cretMs4'"`, ["S3cretMs4"]],
      [`mysql -e "SET PASSWORD FOR 'app'@'%' = PASSWORD('S3cretMy5')"`, ["S3cretMy5"]],
    ],
  ],
  [
    "a program's option that takes a password",
    [
      ["redis-cli -h cache -a R3disPass5 ping", ["R3disPass5"]],
      ["redis-cli -h cache AUTH default R3disAuth6", ["R3disAuth6"]],
      ["mongosh mongodb://db/app -u admin -p M0ngoPass6", ["M0ngoPass6"]],
      ["sqlcmd -S db -U sa -P SqlCmdPass7 -Q 'select 1'", ["SqlCmdPass7"]],
      ["ldapsearch -x -D cn=admin,dc=example -w LdapPass8 -b dc=example", ["LdapPass8"]],
      ["sshpass -p SshPass13 ssh deploy@host", ["SshPass13"]],
      ["ssh-keygen -t ed25519 -N KeygenPass14 -f deploy_key", ["KeygenPass14"]],
      ["keytool -genkeypair -keystore k.jks -storepass StorePass15 -keypass KeyPass16", ["StorePass15", "KeyPass16"]],
      ["htpasswd -b .htpasswd alice HtPass17", ["HtPass17"]],
      ["htpasswd -nbB alice HtPass18", ["HtPass18"]],
      ["zip -P ZipPass19 out.zip report.txt", ["ZipPass19"]],
      ["openssl pkcs12 -export -in c.pem -passout pass:OsslPass20 -out c.p12", ["OsslPass20"]],
      ["docker exec -it db mysql -uroot -pRootPass21 app", ["RootPass21"]],
      ["7z a -p7zPass22 backup.7z secrets/", ["7zPass22"]],
      ["smbclient //srv/share -U 'CORP\\bob%SmbPass23'", ["SmbPass23"]],
      ["sqlplus scott/OraPass24@orcl @report.sql", ["OraPass24"]],
      ["nmcli dev wifi connect Home password WifiPass26", ["WifiPass26"]],
      ["xfreerdp /u:bob /p:RdpPass27 /v:host", ["RdpPass27"]],
      ["apksigner sign --ks k.jks --ks-pass pass:ApkPass28 app.apk", ["ApkPass28"]],
    ],
  ],
  [
    "a credential file's line",
    [
      ["printf 'machine github.com login bob password NetrcPass9 account NetrcAcct9\\n' >> ~/.netrc", ["NetrcPass9", "NetrcAcct9"]],
      ["echo 'db.example.com:5432:app:alice:PgPassLine10' >> ~/.pgpass", ["PgPassLine10"]],
      ["echo '*:*:*:postgres:PgPassStar11' > ~/.pgpass", ["PgPassStar11"]],
      ["grep client-key-data ~/.kube/config # client-key-data: LS0tLS1CRUdJTiBFQyBQUklWQVRFIEtFWS0tLS0t", ["LS0tLS1CRUdJTiBFQyBQUklWQVRFIEtFWS0tLS0t"]],
      ["redis-cli CONFIG SET requirepass RedisConf29", ["RedisConf29"]],
      ["echo 'bindpw LdapBind30' >> /etc/ldap.conf", ["LdapBind30"]],
    ],
  ],
  [
    "a key that names a secret",
    [
      ["SSHPASS=SshPassEnv12 sshpass -e ssh deploy@host", ["SshPassEnv12"]],
      ["REDISCLI_AUTH=RedisEnv31 redis-cli ping", ["RedisEnv31"]],
      ["GH_PAT=PatValue32abc gh api user", ["PatValue32abc"]],
    ],
  ],
  [
    "webhook and bot tokens",
    [
      ["curl -X POST -d '{}' https://discord.com/api/webhooks/123456789012345678/AbCdEfGhIjKlMnOpQrStUvWxYz0123456789", ["AbCdEfGhIjKlMnOpQrStUvWxYz0123456789"]],
      ["curl https://api.telegram.org/bot123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsawX/getMe", ["AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsawX"]],
    ],
  ],
];

describe("issue 25's forms are gone from every stored byte and from the recap", () => {
  test.each(FAMILIES)("%s", (_family, forms) => {
    const project = tempProject();
    const session = "sec-2";
    for (const [text] of forms) {
      emitEvent(project, {
        hook_event_name: "PostToolUse",
        tool_name: "Bash",
        tool_input: { command: text },
        tool_response: { stdout: `ran ${text}`, stderr: "", exit_code: 0 },
        session_id: session,
      });
    }
    emitEvent(project, { hook_event_name: "Stop", last_assistant_message: `Done: ${forms.map(([text]) => text).join("; ")}`, session_id: session });
    const secrets = forms.flatMap(([, held]) => held);
    expectAbsentFromRuntime(project, secrets);
    const checkpoint = recapText(project, session);
    expect(checkpoint).toContain("[REDACTED]");
    expect(secrets.filter((secret) => checkpoint.includes(secret))).toEqual([]);
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
    "docker run -p 8080:80 nginx",
    "mkdir -p build && zip -r out.zip build",
    "ssh-keygen -t ed25519 -N '' -f deploy_key",
    "mysql -u root -p app",
    "7z a -p backup.7z secrets/",
    "curl -b cookies.txt https://example.com",
    "psql -h db -p 5432 -U app",
    "the machine learning model passed review",
    "Read the password reset docs",
    "MY_PATH=/usr/local/bin make",
  ];
  test.each(ORDINARY)("%s", (text) => {
    const project = tempProject();
    emitEvent(project, { hook_event_name: "PostToolUse", tool_name: "TodoWrite", tool_input: { todos: [{ content: text, status: "pending" }] }, session_id: "s" });
    expect(recapText(project, "s")).toContain(`- [ ] ${text}`);
  });
});
