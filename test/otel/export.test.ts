/**
 * `otel:export` of a real recorded session (four harnesses through the real `hooks:emit`), decoded at a loopback
 * collector with the official OTLP schema: the mapping onto traces and logs, both protocols, and what each privacy
 * level lets through.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { cleanupTemp, rows, tempProject } from "../helpers.ts";
import { CLAUDE_SESSION, CODEX_SESSION, COPILOT_SESSION, homeWithConfig, OPENCODE_SESSION, recordSession, runAsync, SECRET, SESSION_SPANS } from "./helpers.ts";
import { startReceiver, type ReceivedLog, type ReceivedSpan, type Receiver } from "./receiver.ts";

afterAll(cleanupTemp);

type Exported = { receiver: Receiver; spans: ReceivedSpan[]; logs: ReceivedLog[]; stdout: string; code: number; project: string };

async function exportSession(env: Record<string, string>, config: Record<string, unknown> | null = null): Promise<Exported> {
  const receiver = startReceiver();
  const project = tempProject();
  const home = homeWithConfig(config ? { otel: { endpoint: receiver.url, ...config } } : null);
  recordSession(project, home);
  const run = await runAsync({ args: ["otel:export", project], cwd: project, home, env: config ? env : { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, ...env } });
  receiver.stop();
  return { receiver, spans: receiver.spans(), logs: receiver.logs(), stdout: run.stdout, code: run.code, project };
}

const byName = (spans: readonly ReceivedSpan[], name: string) => spans.filter((span) => span.name === name);
const logNamed = (logs: readonly ReceivedLog[], name: string) => logs.filter((log) => log.eventName === name);

describe("a recorded session, protobuf, metadata only (the default)", () => {
  let out: Exported;
  beforeAll(async () => {
    out = await exportSession({});
  });

  test("the command says what it sent and exits 0", () => {
    expect(out.code).toBe(0);
    expect(out.stdout).toMatch(new RegExp(`^traces → http://127\\.0\\.0\\.1:\\d+/v1/traces \\(http/protobuf\\): sent ${SESSION_SPANS} spans for \\d+ events in 1 request$`, "m"));
    expect(out.stdout).toMatch(/^logs → http:\/\/127\.0\.0\.1:\d+\/v1\/logs \(http\/protobuf\): sent \d+ log records for \d+ events in 1 request$/m);
    expect(out.receiver.requests.map((r) => r.contentType)).toEqual(["application/x-protobuf", "application/x-protobuf"]);
  });

  test("one span per tool call, following the GenAI conventions", () => {
    expect(out.spans.map((span) => span.name).sort()).toEqual([
      "execute_tool Bash", "execute_tool Bash", "execute_tool Bash", "execute_tool TaskUpdate", "execute_tool TodoWrite", "execute_tool Write", "execute_tool Write",
      "execute_tool apply_patch", "execute_tool update_plan",
    ]);
    for (const span of out.spans) {
      expect(span.kind).toBe(1); // INTERNAL
      expect(span.attributes["gen_ai.operation.name"]).toBe("execute_tool");
      expect(span.attributes["gen_ai.agent.name"]).toBe("dev");
      expect(span.attributes["gen_ai.tool.name"]).toBe(span.name.slice("execute_tool ".length));
      expect(span.scope).toBe("aioson");
      expect(span.traceId).toMatch(/^[0-9a-f]{32}$/);
      expect(span.spanId).toMatch(/^[0-9a-f]{16}$/);
    }
    expect(new Set(out.spans.map((span) => span.spanId)).size).toBe(out.spans.length);
  });

  test("one trace per harness session, carrying its id", () => {
    const traces = new Map<string, Set<string>>();
    for (const span of out.spans) {
      const conversation = String(span.attributes["gen_ai.conversation.id"]);
      traces.set(conversation, (traces.get(conversation) ?? new Set()).add(span.traceId));
    }
    expect([...traces.keys()].sort()).toEqual([CODEX_SESSION, CLAUDE_SESSION, COPILOT_SESSION, OPENCODE_SESSION].sort());
    for (const ids of traces.values()) expect(ids.size).toBe(1);
    expect(new Set([...traces.values()].map((ids) => [...ids][0])).size).toBe(4);
    const harness = Object.fromEntries(out.spans.map((span) => [span.attributes["gen_ai.conversation.id"], span.attributes["aioson.harness"]]));
    expect(harness).toEqual({ [CLAUDE_SESSION]: "claude", [CODEX_SESSION]: "codex", [OPENCODE_SESSION]: "opencode", [COPILOT_SESSION]: "copilot" });
  });

  test("Claude Code's duration_ms is the span's duration; others end where they start", () => {
    const write = out.spans.find((span) => span.name === "execute_tool Write" && span.attributes["aioson.harness"] === "claude") as ReceivedSpan;
    expect(write.endNs - write.startNs).toBe(21_000_000n);
    expect(write.attributes["aioson.duration.reported"]).toBe(true);
    const tests = out.spans.find((span) => span.name === "execute_tool Bash" && span.attributes["aioson.harness"] === "claude" && span.attributes["aioson.command.outcome"] === "failed" && span.attributes["aioson.command.test_runner"] === true) as ReceivedSpan;
    expect(tests.endNs - tests.startNs).toBe(1_834_000_000n);
    const patch = byName(out.spans, "execute_tool apply_patch")[0] as ReceivedSpan;
    expect(patch.endNs).toBe(patch.startNs);
    expect(patch.attributes["aioson.duration.reported"]).toBe(false);
  });

  test("outcomes: failed commands are ERROR spans with their exit code, plans carry their counts, a patch its file count", () => {
    const lint = out.spans.find((span) => span.attributes["aioson.command.outcome"] === "failed" && span.attributes["process.exit.code"] === 2) as ReceivedSpan;
    expect(lint.status).toEqual({ code: 2, message: "exit code 2" });
    expect(lint.attributes["error.type"]).toBe("command_failed");
    const status = out.spans.find((span) => span.attributes["aioson.harness"] === "opencode") as ReceivedSpan;
    expect(status.attributes["aioson.command.outcome"]).toBe("passed");
    expect(status.status.code).toBe(0);
    expect(byName(out.spans, "execute_tool TodoWrite")[0]?.attributes).toMatchObject({ "aioson.plan.done": 1, "aioson.plan.total": 2 });
    expect(byName(out.spans, "execute_tool apply_patch")[0]?.attributes["aioson.file.count"]).toBe(2);
  });

  test("plan updates: TodoWrite, update_plan and Claude Code's task-by-task plan, with their counts", () => {
    const plans = logNamed(out.logs, "aioson.plan_updated");
    expect(plans.map((log) => [log.attributes["gen_ai.tool.name"] ?? null, log.attributes["aioson.plan.done"], log.attributes["aioson.plan.total"]])).toEqual([
      ["TodoWrite", 1, 2],
      // The TaskCreated event records the new task; the TaskCreate call that follows changes nothing and records nothing.
      [null, 0, 1],
      ["TaskUpdate", 1, 1],
      ["update_plan", 1, 1],
    ]);
    // TaskCreated is a hook event, not a tool call: a log record only.
    expect(out.spans.some((span) => span.name === "execute_tool TaskCreated")).toBe(false);
    expect(byName(out.spans, "execute_tool TaskUpdate")[0]?.attributes).toMatchObject({ "aioson.plan.done": 1, "aioson.plan.total": 1 });
  });

  test("log records for the other events, in the trace of their harness session", () => {
    const names = out.logs.map((log) => log.eventName);
    for (const name of ["aioson.session_started", "aioson.agent_activated", "aioson.compaction", "aioson.agent_message", "aioson.agent_done", "aioson.session_ended", "aioson.plan_updated", "aioson.test_result"]) {
      expect(names).toContain(name);
    }
    const compactions = logNamed(out.logs, "aioson.compaction");
    expect(compactions.map((log) => log.attributes["aioson.compaction.trigger"]).sort()).toEqual(["auto", "manual"]);
    const claudeTrace = out.spans.find((span) => span.attributes["gen_ai.conversation.id"] === CLAUDE_SESSION)?.traceId;
    expect(compactions.find((log) => log.attributes["aioson.compaction.trigger"] === "auto")?.traceId).toBe(claudeTrace as string);
    const ended = logNamed(out.logs, "aioson.session_ended")[0] as ReceivedLog;
    expect(ended.attributes["aioson.session.end_reason"]).toBe("exit");
    const failedTests = logNamed(out.logs, "aioson.test_result")[0] as ReceivedLog;
    expect(failedTests).toMatchObject({ severityText: "WARN", severityNumber: 13 });
    expect(failedTests.attributes["aioson.command.outcome"]).toBe("failed");
    // A tool call's log records point at its span.
    const testSpan = out.spans.find((span) => span.attributes["aioson.command.test_runner"] === true) as ReceivedSpan;
    expect(failedTests.spanId).toBe(testSpan.spanId);
    for (const log of out.logs) expect(String(log.attributes["log.record.uid"])).toMatch(/^[0-9a-f]{32}$/);
    const decision = logNamed(out.logs, "aioson.guard_decision")[0] as ReceivedLog;
    expect(decision).toMatchObject({ severityText: "WARN", traceId: claudeTrace as string });
    expect(decision.attributes).toMatchObject({ "aioson.guard.name": "pre-commit-guard", "aioson.guard.decision": "deny", "gen_ai.tool.name": "Bash", "aioson.harness": "claude" });
  });

  test("resource attributes name the service, the host and the project", () => {
    const resource = out.spans[0]?.resource ?? {};
    expect(resource["service.name"]).toBe("aioson");
    expect(typeof resource["service.version"]).toBe("string");
    expect(typeof resource["host.name"]).toBe("string");
    expect(resource["aioson.project.name"]).toBe(out.project.split("/").pop() as string);
    expect(String(resource["aioson.project.id"])).toMatch(/^[0-9a-f]{32}$/);
  });

  test("privacy: no command line, file path, message or secret leaves the machine", () => {
    const sent = JSON.stringify({ spans: out.spans, logs: out.logs }, (_k, value) => (typeof value === "bigint" ? String(value) : value));
    for (const text of ["npm test", "npm run lint", "src/cart", "total.ts", "CHANGES.md", "Fixed the rounding", "fix the cart", "Fix rounding", "lint failed", "git status", "added stuff", "coupon", SECRET]) {
      expect(sent).not.toContain(text);
    }
    expect(logNamed(out.logs, "aioson.compaction")[0]?.body).toBe("compaction");
  });

  test("the cursors moved to the last event, for each signal", () => {
    const cursors = rows<{ signal: string; last_event_id: number }>(out.project, "SELECT signal, last_event_id FROM otel_export_cursors ORDER BY signal");
    const max = rows<{ id: number }>(out.project, "SELECT MAX(id) AS id FROM execution_events")[0]?.id;
    expect(cursors).toEqual([{ signal: "logs", last_event_id: max as number }, { signal: "traces", last_event_id: max as number }]);
  });
});

describe("privacy levels and protocols", () => {
  test("http/json carries exactly what protobuf carries", async () => {
    const json = await exportSession({ OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" });
    expect(json.receiver.requests.map((r) => r.contentType)).toEqual(["application/json", "application/json"]);
    const proto = await exportSession({});
    const shape = (spans: ReceivedSpan[]) => spans.map((s) => [s.name, s.kind, String(s.endNs - s.startNs), s.status, Object.keys(s.attributes).sort()]).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
    expect(shape(json.spans)).toEqual(shape(proto.spans));
    const logShape = (logs: ReceivedLog[]) => logs.map((l) => [l.eventName, l.severityNumber, l.body, Object.keys(l.attributes).sort()]).sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
    expect(logShape(json.logs)).toEqual(logShape(proto.logs));
  });

  test("AIOSON_OTEL_CONTENT=paths adds file paths only", async () => {
    const out = await exportSession({ AIOSON_OTEL_CONTENT: "paths" });
    const write = out.spans.find((span) => span.name === "execute_tool Write" && span.attributes["aioson.harness"] === "claude") as ReceivedSpan;
    expect(write.attributes["file.path"]).toBe("src/cart/total.ts");
    expect(byName(out.spans, "execute_tool apply_patch")[0]?.attributes["aioson.files"]).toEqual(["docs/CHANGES.md", "src/config.ts"]);
    const sent = JSON.stringify({ spans: out.spans, logs: out.logs }, (_k, value) => (typeof value === "bigint" ? String(value) : value));
    for (const text of ["npm test", "Fixed the rounding", "Fix rounding", "git status"]) expect(sent).not.toContain(text);
  });

  test("content \"full\" (from the user config) adds command lines, messages and errors, redacted", async () => {
    const out = await exportSession({}, { content: "full", protocol: "http/json" });
    const tests = out.spans.find((span) => span.attributes["aioson.command.test_runner"] === true) as ReceivedSpan;
    expect(tests.attributes["process.command_line"]).toBe("GITHUB_TOKEN=[REDACTED] npm test -- cart");
    const lint = out.spans.find((span) => span.attributes["process.exit.code"] === 2) as ReceivedSpan;
    expect(lint.status.message).toContain("lint failed");
    expect(logNamed(out.logs, "aioson.agent_message")[0]?.body).toBe("Fixed the rounding in src/cart/total.ts; one coupon test still fails.");
    expect(byName(out.spans, "execute_tool TodoWrite")[0]?.attributes["aioson.plan.items"]).toEqual(["[completed] Fix rounding in total()", "[in_progress] Add a test for coupons"]);
    const sent = JSON.stringify({ spans: out.spans, logs: out.logs }, (_k, value) => (typeof value === "bigint" ? String(value) : value));
    expect(sent).not.toContain(SECRET);
  });

  test("OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES shape the resource", async () => {
    const out = await exportSession({ OTEL_SERVICE_NAME: "agents-ci", OTEL_RESOURCE_ATTRIBUTES: "deployment.environment=ci,team=pay%20ments" });
    expect(out.spans[0]?.resource).toMatchObject({ "service.name": "agents-ci", "deployment.environment": "ci", team: "pay ments" });
  });

  test("a dry run shows the OTLP/JSON request and sends nothing", async () => {
    const receiver = startReceiver();
    const project = tempProject();
    const home = homeWithConfig(null);
    recordSession(project, home);
    const run = await runAsync({ args: ["otel:export", project, "--dry-run", "--json"], cwd: project, home, env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url } });
    receiver.stop();
    expect(run.code).toBe(0);
    const report = run.json as { dryRun: boolean; preview: Array<{ signal: string; items: number; request: { resourceSpans?: unknown[]; resourceLogs?: unknown[] } }> };
    expect(report.dryRun).toBe(true);
    expect(report.preview.map((p) => [p.signal, p.items > 0])).toEqual([["traces", true], ["logs", true]]);
    expect(report.preview[0]?.request.resourceSpans).toHaveLength(1);
    expect(receiver.requests).toHaveLength(0);
    expect(rows(project, "SELECT * FROM otel_export_cursors")).toEqual([]);
  });
});
