/**
 * Issue 25 item 1: the commands that record a person's or a script's free text — `agent:done` and `runtime:emit`
 * (into an open session and standalone), `live:start` — redact it like hooks:emit does, whatever field it arrives
 * in (summary, title, goal, message, refs, artifacts, `--meta` values and keys). Each test reads back the raw bytes
 * of every runtime file (the store, its WAL, `events.ndjson`, `state.json`), the rows themselves, the checkpoint
 * hooks:recap re-injects and what `otel:export` would send.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { cleanupTemp, rows, tempDir, tempProject } from "../helpers.ts";
import { emitEvent, expectAbsentFromRuntime, exportPreview, recapText, runCommand } from "./text-helpers.ts";

afterAll(cleanupTemp);

/** Secrets of the forms hook events already redacted and of the round-2 forms, and the text that holds them all. */
const SECRETS = [
  "ghp_R2abcdefghijklmnopqrstuvwxyz01",
  "PgUrlPass1",
  "EnvPass2",
  "sk-ant-api03-R2abcdefghijklmnopqrs",
  "SqlIdPass3",
  "RedisPass4",
  "KeyStorePass5",
] as const;
const TEXT = [
  `pushed with ${SECRETS[0]}`,
  `migrated postgres://app:${SECRETS[1]}@db.internal/app`,
  `DB_PASSWORD=${SECRETS[2]} npm start`,
  `asked ${SECRETS[3]}`,
  `ran CREATE USER 'app'@'%' IDENTIFIED BY '${SECRETS[4]}'`,
  `redis-cli -h cache -a ${SECRETS[5]} ping`,
  `keytool -genkeypair -keystore k.jks -storepass ${SECRETS[6]}`,
].join("; ");
/** Secrets only the other fields carry. */
const META_SECRET = "MetaValuePass6";
const REF_SECRET = "RefUrlPass7";
const TITLE_SECRET = "glpat-R2abcdefghijklmnopqrst";

const ALL = [...SECRETS, META_SECRET, REF_SECRET, TITLE_SECRET];

/** A project with a hooks session of @dev open (harness session `s1`), as the first Write of a session leaves it. */
function projectWithSession(): string {
  const project = tempProject();
  emitEvent(project, { hook_event_name: "PostToolUse", tool_name: "Write", tool_input: { file_path: "src/cart.ts" }, session_id: "s1" });
  return project;
}

/** Every ndjson line of the project's live sessions. */
function liveLines(project: string): Array<Record<string, unknown>> {
  const live = join(project, ".aioson", "runtime", "live");
  const lines: Array<Record<string, unknown>> = [];
  for (const dir of readdirSync(live)) {
    const text = readFileSync(join(live, dir, "events.ndjson"), "utf8");
    for (const line of text.split("\n").filter(Boolean)) lines.push(JSON.parse(line) as Record<string, unknown>);
  }
  return lines;
}

function stateTexts(project: string): string {
  const live = join(project, ".aioson", "runtime", "live");
  return readdirSync(live).map((dir) => readFileSync(join(live, dir, "state.json"), "utf8")).join("\n");
}

describe("agent:done", () => {
  test("into an open session: the event, its artifacts and the live files hold no secret", () => {
    const project = projectWithSession();
    runCommand(["agent:done", project, "--agent=dev", `--summary=${TEXT}`, `--artifacts=src/cart.ts,https://deploy:${REF_SECRET}@files.example.com/x`, "--json"]);
    expectAbsentFromRuntime(project, ALL);
    const [event] = rows<{ message: string; payload_json: string }>(project, "SELECT message, payload_json FROM execution_events WHERE event_type = 'agent_done'");
    expect(event?.message).toContain("IDENTIFIED BY '[REDACTED]'");
    expect(event?.message).toContain("postgres://app:[REDACTED]@db.internal/app");
    expect(event?.payload_json).toContain(`https://deploy:[REDACTED]@files.example.com/x`);
    const artifacts = rows<{ file_path: string }>(project, "SELECT file_path FROM artifacts ORDER BY file_path");
    expect(artifacts.map((row) => row.file_path)).toEqual(["https://deploy:[REDACTED]@files.example.com/x", "src/cart.ts"]);
    const line = liveLines(project).find((entry) => entry.type === "agent_done");
    expect(line?.summary).toContain("redis-cli -h cache -a [REDACTED] ping");
    expect(line?.refs).toEqual(["src/cart.ts", "https://deploy:[REDACTED]@files.example.com/x"]);
    expect(stateTexts(project)).toContain("keytool -genkeypair -keystore k.jks -storepass [REDACTED]");
  });

  test("standalone: the task, the run, every event and the JSON answer hold no secret", () => {
    const project = tempProject();
    const run = runCommand(["agent:done", project, "--agent=dev", `--summary=${TEXT}`, `--title=release ${TITLE_SECRET}`, "--verdict=PASS", "--json"]);
    expect(ALL.filter((secret) => run.stdout.includes(secret))).toEqual([]);
    expectAbsentFromRuntime(project, ALL, { live: false });
    const [task] = rows<{ task_key: string; title: string; goal: string }>(project, "SELECT task_key, title, goal FROM tasks");
    expect(task?.title).toBe("release [REDACTED]");
    expect(task?.task_key).toStartWith("task-release-redacted-");
    expect(task?.goal).toContain("DB_PASSWORD=[REDACTED] npm start");
    const [agentRun] = rows<{ summary: string }>(project, "SELECT summary FROM agent_runs");
    expect(agentRun?.summary).toContain("keytool -genkeypair -keystore k.jks -storepass [REDACTED]");
    expect(rows(project, "SELECT 1 FROM execution_events WHERE message LIKE '%[REDACTED]%'").length).toBe(3);
  });

  test("a secret cut by the 500-character cap is redacted before the cut", () => {
    const project = tempProject();
    // The token starts at 480: cut at 497, the 17 characters left are too few for the token shape.
    runCommand(["agent:done", project, "--agent=dev", `--summary=${"x".repeat(479)} ${SECRETS[0]}`]);
    expectAbsentFromRuntime(project, [SECRETS[0].slice(0, 17)], { live: false });
    const [agentRun] = rows<{ summary: string }>(project, "SELECT summary FROM agent_runs");
    expect(agentRun?.summary).toEndWith(" [REDACTED]");
  });
});

describe("runtime:emit", () => {
  const meta = JSON.stringify({ db_password: META_SECRET, note: TEXT, nested: { apiToken: META_SECRET }, count: 3 });

  test("into an open session: the event, the live files and the checkpoint hold no secret", () => {
    const project = projectWithSession();
    runCommand(["runtime:emit", project, "--agent=dev", "--type=note", `--summary=${TEXT}`, `--refs=https://ci:${REF_SECRET}@ci.example.com/run/1`, `--meta=${meta}`, "--json"]);
    runCommand(["runtime:emit", project, "--agent=dev", "--type=task_started", `--title=rotate ${TITLE_SECRET}`, `--summary=${TEXT}`]);
    expectAbsentFromRuntime(project, ALL);
    const [note] = rows<{ payload_json: string }>(project, "SELECT payload_json FROM execution_events WHERE event_type = 'note' AND payload_json LIKE '%refs%'");
    const payload = JSON.parse(note?.payload_json ?? "{}") as Record<string, unknown>;
    expect(payload.db_password).toBe("[REDACTED]");
    expect(payload.nested).toEqual({ apiToken: "[REDACTED]" });
    expect(payload.count).toBe(3);
    expect(payload.refs).toEqual(["https://ci:[REDACTED]@ci.example.com/run/1"]);
    const [micro] = rows<{ title: string; goal: string }>(project, "SELECT title, goal FROM tasks WHERE task_kind = 'micro_task'");
    expect(micro?.title).toBe("rotate [REDACTED]");
    expect(micro?.goal).toContain("redis-cli -h cache -a [REDACTED] ping");
    const line = liveLines(project).find((entry) => entry.type === "note");
    expect(line?.meta).toMatchObject({ db_password: "[REDACTED]", nested: { apiToken: "[REDACTED]" } });
    const checkpoint = recapText(project, "s1");
    expect(checkpoint).toContain("IDENTIFIED BY '[REDACTED]'");
    expect(ALL.filter((secret) => checkpoint.includes(secret))).toEqual([]);
  });

  test("standalone: the task, the run and the event hold no secret", () => {
    const project = tempProject();
    runCommand(["runtime:emit", project, "--agent=dev", "--type=note", `--title=nightly ${TITLE_SECRET}`, `--summary=${TEXT}`, `--meta=${meta}`, "--json"]);
    expectAbsentFromRuntime(project, ALL, { live: false });
    const [task] = rows<{ title: string; goal: string }>(project, "SELECT title, goal FROM tasks");
    expect(task?.title).toBe("nightly [REDACTED]");
    expect(task?.goal).toContain("asked [REDACTED]");
    const [agentRun] = rows<{ title: string; summary: string }>(project, "SELECT title, summary FROM agent_runs");
    expect(agentRun?.title).toBe("nightly [REDACTED]");
    expect(agentRun?.summary).toContain("pushed with [REDACTED]");
  });
});

describe("live:start", () => {
  test("the title, goal and first message reach the store and the live files redacted", () => {
    const project = tempProject();
    const home = tempDir("aioson-home-");
    runCommand(["live:start", project, "--agent=dev", "--tool=codex", `--title=deploy ${TITLE_SECRET}`, `--goal=${TEXT}`, `--message=started: redis-cli -a ${SECRETS[5]}`, "--no-launch", "--json"], home);
    expectAbsentFromRuntime(project, ALL);
    const [task] = rows<{ title: string; goal: string }>(project, "SELECT title, goal FROM tasks");
    expect(task?.title).toBe("deploy [REDACTED]");
    expect(task?.goal).toContain("migrated postgres://app:[REDACTED]@db.internal/app");
    expect(stateTexts(project)).toContain('"title": "deploy [REDACTED]"');
    expect(liveLines(project)[0]?.summary).toContain("redis-cli -a [REDACTED]");
  });
});

describe("otel:export", () => {
  test("what the export would send holds none of the secrets the commands recorded", () => {
    const project = projectWithSession();
    runCommand(["agent:done", project, "--agent=dev", `--summary=${TEXT}`]);
    runCommand(["runtime:emit", project, "--agent=dev", "--type=note", `--summary=${TEXT}`, `--meta=${JSON.stringify({ db_password: META_SECRET })}`]);
    const preview = exportPreview(project);
    expect(preview).toContain("IDENTIFIED BY '[REDACTED]'");
    expect(preview).toContain("keytool -genkeypair -keystore k.jks -storepass [REDACTED]");
    expect(ALL.filter((secret) => preview.includes(secret))).toEqual([]);
  });
});
