/**
 * Delivery of `otel:export` against a collector that is down, slow, throttling, partly refusing or refusing, and a
 * backlog of 10,000 events: at least once, in bounded batches, the cursor moving only past what the collector
 * took, and resends carrying the same ids (so a backend deduplicating by id holds every event exactly once).
 */
import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { BINARY, cleanupTemp, rows, tempProject } from "../helpers.ts";
import { eventually, homeWithConfig, otelEnv, recordSession, runAsync, SESSION_SPANS } from "./helpers.ts";
import { gatedReceiver, partialSuccessBody, startReceiver, uniqueLogs, uniqueSpans } from "./receiver.ts";
import { openDbFile } from "../../scripts/open-db.ts";

afterAll(cleanupTemp);

type Report = { ok: boolean; skipped?: string; signals: Array<{ signal: string; sent: number; events: number; batches: number; rejected: number; cursor: number; pending: number; stopped?: string; error?: string; retryAt?: string }> };

function freePort(): number {
  const probe = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("") });
  const port = probe.port as number;
  probe.stop(true);
  return port;
}

function recorded(): { project: string; home: string } {
  const project = tempProject();
  const home = homeWithConfig(null);
  recordSession(project, home);
  return { project, home };
}

async function exportTo(project: string, home: string, url: string, env: Record<string, string> = {}, extra: string[] = []): Promise<{ code: number; report: Report; stdout: string }> {
  const run = await runAsync({ args: ["otel:export", project, "--json", ...extra], cwd: project, home, env: { OTEL_EXPORTER_OTLP_ENDPOINT: url, ...env } });
  return { code: run.code, report: run.json as Report, stdout: run.stdout };
}

function cursors(project: string): Array<{ signal: string; last_event_id: number; failures: number; retry_at: number | null }> {
  return rows(project, "SELECT signal, last_event_id, failures, retry_at FROM otel_export_cursors ORDER BY signal");
}

function maxId(project: string): number {
  return rows<{ id: number }>(project, "SELECT MAX(id) AS id FROM execution_events")[0]?.id ?? 0;
}

function hookLog(project: string): string {
  return readFileSync(join(project, ".aioson", "runtime", "hooks.log"), "utf8");
}

describe("a collector that is down", () => {
  test("nothing moves, the failure is reported and backed off; once it is back everything arrives once", async () => {
    const { project, home } = recorded();
    const port = freePort();
    const url = `http://127.0.0.1:${port}`;
    const down = await exportTo(project, home, url);
    expect(down.code).toBe(1);
    expect(down.report.ok).toBe(false);
    expect(down.report.signals.map((s) => [s.signal, s.stopped, s.sent, s.cursor])).toEqual([["traces", "failed", 0, 0], ["logs", "failed", 0, 0]]);
    const after = cursors(project);
    expect(after.map((c) => [c.signal, c.last_event_id, c.failures])).toEqual([["logs", 0, 1], ["traces", 0, 1]]);
    for (const c of after) expect((c.retry_at ?? 0) > Date.now()).toBe(true);
    expect(hookLog(project)).toContain("otel:export traces to http://127.0.0.1:");

    const receiver = startReceiver(null, port);
    try {
      // The automatic exporter waits out the backoff; the command run by a person does not.
      const auto = await runAsync({ args: ["otel:export", project, "--auto"], cwd: project, home, env: { OTEL_EXPORTER_OTLP_ENDPOINT: url } });
      expect(auto.code).toBe(0);
      expect(auto.stdout).toBe("");
      expect(receiver.requests).toHaveLength(0);
      const back = await exportTo(project, home, url);
      expect(back.code).toBe(0);
      expect(back.report.signals.every((s) => s.stopped === undefined && s.pending === 0)).toBe(true);
      expect(cursors(project).map((c) => [c.last_event_id, c.failures, c.retry_at])).toEqual([[maxId(project), 0, null], [maxId(project), 0, null]]);
      expect(receiver.spans()).toHaveLength(SESSION_SPANS);
      expect(uniqueLogs(receiver.logs()).size).toBe(receiver.logs().length);
    } finally {
      receiver.stop();
    }
  });
});

describe("a slow collector", () => {
  test("each request gives up at the timeout; the retry of the same events carries the same ids", async () => {
    const { project, home } = recorded();
    let slow = true;
    const receiver = startReceiver(async () => {
      if (slow) await Bun.sleep(1_500);
      return undefined;
    });
    try {
      const timedOut = await exportTo(project, home, receiver.url, { OTEL_EXPORTER_OTLP_TIMEOUT: "200", OTEL_TRACES_EXPORTER: "none" });
      expect(timedOut.code).toBe(1);
      expect(timedOut.report.signals).toHaveLength(1);
      expect(timedOut.report.signals[0]).toMatchObject({ signal: "logs", stopped: "failed", error: "timed out", cursor: 0 });
      slow = false;
      const ok = await exportTo(project, home, receiver.url, { OTEL_EXPORTER_OTLP_TIMEOUT: "5000", OTEL_TRACES_EXPORTER: "none" });
      expect(ok.code).toBe(0);
      // The timed-out attempts were answered late (and kept) by the collector: the same records, the same ids.
      await Bun.sleep(1_600);
      const perRequest = receiver.requests.map((r) => r.logs.map((l) => String(l.attributes["log.record.uid"])).sort().join());
      expect(perRequest.length).toBeGreaterThan(1);
      expect(new Set(perRequest).size).toBe(1);
      expect(uniqueLogs(receiver.logs()).size).toBe(receiver.requests[0]?.logs.length as number);
    } finally {
      receiver.stop();
    }
  });
});

describe("an exporter killed mid-request", () => {
  test("SIGKILL: the cursor has not moved, its lease is free at once, the next export resends the same ids", async () => {
    const { project, home } = recorded();
    const { receiver, open, inFlight } = gatedReceiver();
    try {
      const child = Bun.spawn([BINARY, "otel:export", project], { cwd: project, env: otelEnv(home, { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_LOGS_EXPORTER: "none" }), stdout: "ignore", stderr: "ignore" });
      expect(await eventually(() => inFlight() > 0)).toBe(true);
      child.kill(9);
      await child.exited;
      open();
      expect(await eventually(() => receiver.requests.length === 1)).toBe(true);
      expect(cursors(project)).toEqual([]);
      const next = await exportTo(project, home, receiver.url, { OTEL_LOGS_EXPORTER: "none" });
      expect(next.report.skipped).toBeUndefined();
      expect(next.report.signals[0]).toMatchObject({ sent: SESSION_SPANS, pending: 0 });
      expect(receiver.spans()).toHaveLength(2 * SESSION_SPANS);
      expect(uniqueSpans(receiver.spans()).size).toBe(SESSION_SPANS);
    } finally {
      open();
      receiver.stop();
    }
  });
});

describe("throttling", () => {
  test("429 with Retry-After: the batch is sent again once the wait is over, in the same run", async () => {
    const { project, home } = recorded();
    const receiver = startReceiver((_request, n) => (n === 0 ? new Response("slow down", { status: 429, headers: { "retry-after": "1" } }) : undefined));
    const times: number[] = [];
    const script = receiver.script;
    receiver.script = (request, n) => {
      times.push(Date.now());
      return script ? script(request, n) : undefined;
    };
    try {
      const out = await exportTo(project, home, receiver.url, { OTEL_LOGS_EXPORTER: "none" });
      expect(out.code).toBe(0);
      expect(out.report.signals[0]).toMatchObject({ signal: "traces", sent: SESSION_SPANS, batches: 1, pending: 0 });
      expect(times).toHaveLength(2);
      expect((times[1] as number) - (times[0] as number)).toBeGreaterThanOrEqual(950);
      expect(receiver.spans()).toHaveLength(SESSION_SPANS);
    } finally {
      receiver.stop();
    }
  });

  test("503 with a Retry-After longer than a run waits: the export stops and the next automatic one waits that long", async () => {
    const { project, home } = recorded();
    const receiver = startReceiver(() => new Response("", { status: 503, headers: { "retry-after": "3600" } }));
    try {
      const before = Date.now();
      const out = await exportTo(project, home, receiver.url, { OTEL_LOGS_EXPORTER: "none" });
      expect(out.code).toBe(1);
      expect(out.report.signals[0]).toMatchObject({ stopped: "failed", cursor: 0 });
      expect(out.report.signals[0]?.error).toStartWith("HTTP 503");
      const retryAt = cursors(project)[0]?.retry_at ?? 0;
      expect(retryAt - before).toBeGreaterThanOrEqual(3_600_000);
      expect(retryAt - before).toBeLessThan(3_700_000);
      const attempts = receiver.requests.length;
      const auto = await runAsync({ args: ["otel:export", project, "--auto"], cwd: project, home, env: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_LOGS_EXPORTER: "none" } });
      expect(auto.code).toBe(0);
      expect(receiver.requests.length).toBe(attempts);
    } finally {
      receiver.stop();
    }
  });
});

describe("answers that refuse data", () => {
  test("a partial success moves the cursor (OTLP forbids retrying it), counts the rejected spans and logs why", async () => {
    const { project, home } = recorded();
    const receiver = startReceiver((request) => new Response(partialSuccessBody(request.signal, 3, "3 spans had an invalid attribute"), { status: 200, headers: { "content-type": "application/x-protobuf" } }));
    try {
      const out = await exportTo(project, home, receiver.url, { OTEL_LOGS_EXPORTER: "none" });
      expect(out.code).toBe(0);
      expect(out.report.signals[0]).toMatchObject({ signal: "traces", sent: SESSION_SPANS - 3, rejected: 3, pending: 0, cursor: maxId(project) });
      expect(hookLog(project)).toContain(`traces: the collector rejected 3 of ${SESSION_SPANS}: 3 spans had an invalid attribute`);
      const again = await exportTo(project, home, receiver.url, { OTEL_LOGS_EXPORTER: "none" });
      expect(again.report.signals[0]).toMatchObject({ sent: 0, batches: 0 });
      expect(receiver.requests).toHaveLength(1);
    } finally {
      receiver.stop();
    }
  });

  test("a partial success in OTLP/JSON (int64 as a string)", async () => {
    const { project, home } = recorded();
    const receiver = startReceiver(() => Response.json({ partialSuccess: { rejectedLogRecords: "2", errorMessage: "dropped two" } }));
    try {
      const out = await exportTo(project, home, receiver.url, { OTEL_TRACES_EXPORTER: "none", OTEL_EXPORTER_OTLP_PROTOCOL: "http/json" });
      expect(out.code).toBe(0);
      expect(out.report.signals[0]).toMatchObject({ signal: "logs", rejected: 2, pending: 0 });
      expect(hookLog(project)).toContain(": dropped two");
    } finally {
      receiver.stop();
    }
  });

  test("400: the collector will never take this batch; it is counted as rejected and not sent again", async () => {
    const { project, home } = recorded();
    const receiver = startReceiver(() => new Response("bad data", { status: 400 }));
    try {
      const out = await exportTo(project, home, receiver.url, { OTEL_LOGS_EXPORTER: "none" });
      expect(out.report.signals[0]).toMatchObject({ sent: 0, rejected: SESSION_SPANS, cursor: maxId(project) });
      expect(hookLog(project)).toContain(`refused a batch of ${SESSION_SPANS} for good (HTTP 400: bad data)`);
    } finally {
      receiver.stop();
    }
  });

  test("401, a redirect: the export stops with the cursor where it was, and redirects are not followed", async () => {
    const { project, home } = recorded();
    const elsewhere = startReceiver();
    const receiver = startReceiver((_r, n) => (n === 0 ? new Response("no key", { status: 401 }) : new Response("", { status: 307, headers: { location: `${elsewhere.url}/v1/traces` } })));
    try {
      const first = await exportTo(project, home, receiver.url, { OTEL_LOGS_EXPORTER: "none", OTEL_EXPORTER_OTLP_HEADERS: "x-api-key=k1" });
      expect(first.report.signals[0]).toMatchObject({ stopped: "failed", error: "HTTP 401: no key", cursor: 0 });
      const second = await exportTo(project, home, receiver.url, { OTEL_LOGS_EXPORTER: "none", OTEL_EXPORTER_OTLP_HEADERS: "x-api-key=k1" });
      expect(second.report.signals[0]?.error).toContain("HTTP 307");
      expect(elsewhere.requests).toHaveLength(0);
    } finally {
      receiver.stop();
      elsewhere.stop();
    }
  });
});

/** Rows as hooks:emit writes them, straight into the store: a tool call, a test run, a compaction, in turn. */
function backlog(project: string, count: number): void {
  const db = openDbFile(join(project, ".aioson", "runtime", "aios.sqlite"));
  const run = db.query("SELECT run_key, task_key, session_key FROM agent_runs LIMIT 1").get() as { run_key: string; task_key: string; session_key: string };
  const insert = db.query(
    `INSERT INTO execution_events (task_key, run_key, agent_name, agent_kind, session_key, source, event_type, phase, status, tool_name, message, payload_json, sequence_no, created_at, harness_session_id, harness, duration_ms)
     VALUES (?, ?, '@dev', 'official', ?, 'live', ?, 'live', 'running', ?, ?, ?, ?, ?, ?, 'claude', ?)`,
  );
  db.transaction(() => {
    for (let i = 0; i < count; i++) {
      const session = `backlog-${i % 7}`;
      const at = new Date(Date.UTC(2026, 10, 1) + i * 1000).toISOString();
      const kind = i % 3;
      const payload =
        kind === 0
          ? { tool: "Write", file: `src/f${i}.ts`, written_by: "hooks:emit", harness_session_id: session }
          : kind === 1
            ? { tool: "Bash", command: "npm test", outcome: "passed", exit_code: 0, test_runner: false, written_by: "hooks:emit", harness_session_id: session }
            : { trigger: "auto", written_by: "hooks:emit", harness_session_id: session };
      insert.run(run.task_key, run.run_key, run.session_key, ["artifact", "step_done", "compaction"][kind] as string, kind === 2 ? null : (payload.tool as string), `event ${i}`, JSON.stringify(payload), 1000 + i, at, session, kind === 2 ? null : 10 + (i % 50));
    }
  })();
  db.close();
}

describe("a backlog of 10,000 events", () => {
  test("exported in bounded batches, every event exactly once at a deduplicating backend, resends included", async () => {
    const { project, home } = recorded();
    const before = maxId(project);
    backlog(project, 10_000);
    let answered = 0;
    // The 3rd request is answered only after the client gave up on it (the collector kept it: a duplicate to come);
    // the 7th is refused with a 503 (not kept) and retried.
    const receiver = startReceiver(async (_request, n) => {
      answered = n;
      if (n === 2) await Bun.sleep(1_200);
      if (n === 6) return new Response("", { status: 503 });
      return undefined;
    });
    try {
      const first = await exportTo(project, home, receiver.url, { OTEL_EXPORTER_OTLP_TIMEOUT: "800" });
      expect(first.code).toBe(0);
      const report = first.report;
      expect(report.signals.map((s) => [s.signal, s.pending, s.cursor])).toEqual([["traces", 0, maxId(project)], ["logs", 0, maxId(project)]]);
      await Bun.sleep(1_300);
      expect(answered).toBeGreaterThan(80);
      // Bounded: no request carries more than one batch of events, nor a big body.
      for (const request of receiver.requests) {
        expect(request.spans.length + request.logs.length).toBeLessThanOrEqual(256);
        expect(request.bytes).toBeLessThan(4 * 1024 * 1024);
      }
      const spans = uniqueSpans(receiver.spans());
      const logs = uniqueLogs(receiver.logs());
      // A duplicate arrived and is the same span or record (same id, same content).
      expect(receiver.spans().length + receiver.logs().length).toBeGreaterThan(spans.size + logs.size);
      const toolRows = rows<{ n: number }>(project, "SELECT COUNT(*) AS n FROM execution_events WHERE id > ? AND event_type != 'compaction'", before)[0]?.n as number;
      const backlogSpans = [...spans.values()].filter((span) => String(span.attributes["gen_ai.conversation.id"]).startsWith("backlog-"));
      expect(backlogSpans).toHaveLength(toolRows);
      const ids = new Set(backlogSpans.map((span) => span.attributes["aioson.event.id"]));
      expect(ids.size).toBe(toolRows);
      const compactions = [...logs.values()].filter((log) => log.eventName === "aioson.compaction" && String(log.attributes["gen_ai.conversation.id"]).startsWith("backlog-"));
      expect(compactions).toHaveLength(10_000 - toolRows);
      // Nothing is sent twice by a later run.
      const count = receiver.requests.length;
      const again = await exportTo(project, home, receiver.url);
      expect(again.report.signals.map((s) => s.batches)).toEqual([0, 0]);
      expect(receiver.requests.length).toBe(count);
    } finally {
      receiver.stop();
    }
  }, 60_000);

  test("413: a batch the collector finds too large is split until it fits", async () => {
    const { project, home } = recorded();
    backlog(project, 600);
    const receiver = startReceiver((request) => (request.spans.length > 100 ? new Response("too large", { status: 413 }) : undefined));
    try {
      const out = await exportTo(project, home, receiver.url, { OTEL_LOGS_EXPORTER: "none" });
      expect(out.code).toBe(0);
      expect(out.report.signals[0]).toMatchObject({ pending: 0, rejected: 0 });
      expect(receiver.requests.every((r) => r.spans.length <= 100)).toBe(true);
      expect(uniqueSpans(receiver.spans()).size).toBe(receiver.spans().length);
      expect(receiver.spans().length).toBe(SESSION_SPANS + 400);
    } finally {
      receiver.stop();
    }
  });
});
