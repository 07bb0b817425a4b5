import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { appendAgentDone, parseArtifactList, publishAgentDone } from "../../src/session/agent-done.ts";
import { createSessionRows, publishNewSession } from "../../src/session/sessions.ts";
import { closeStore, openStore, withStoreTransaction } from "../../src/store/db.ts";
import { ndjsonPath } from "../../src/live/ndjson.ts";
import { readState } from "../../src/live/state.ts";
import { getRun } from "../../src/store/records.ts";
import { cleanupTemp, tempProject } from "../helpers.ts";

afterAll(cleanupTemp);

describe("appendAgentDone (the hooks:emit --then=agent:done entry point)", () => {
  test("rows in the caller's transaction, then the ndjson line and state fold", () => {
    const root = tempProject();
    const store = openStore(root);
    if (!store) throw new Error("no store");
    try {
      const session = withStoreTransaction(store, () =>
        createSessionRows(store.db, { owner: "hooks", agent: "dev", tool: "claude", root, sessionKey: "hooks-dev-1", title: "[hooks] dev via claude", startedMessage: "Auto-started" }),
      );
      publishNewSession(store.db, session, { summary: "Auto-started", ndjsonLine: { ts: session.startedAt, type: "session_started" } });
      const event = withStoreTransaction(store, () =>
        appendAgentDone(store.db, session.runKey, { summary: "Done", verdict: "pass", planStep: "RF-1", artifacts: ["a.ts"], harnessSessionId: "h-1" }),
      );
      const run = getRun(store.db, session.runKey);
      if (!run) throw new Error("no run");
      publishAgentDone(root, run, event);
      const row = store.db.query("SELECT * FROM execution_events WHERE id = ?").get(event.id) as Record<string, unknown>;
      expect(row).toMatchObject({ event_type: "agent_done", phase: "live", status: "running", message: "Done", verdict: "PASS", plan_step_id: "RF-1", harness_session_id: "h-1", sequence_no: 2 });
      expect(JSON.parse(String(row.payload_json))).toEqual({ artifacts: ["a.ts"], harness_session_id: "h-1" });
      expect(store.db.query("SELECT kind, title, file_path FROM artifacts").all()).toEqual([{ kind: "output", title: "a.ts", file_path: "a.ts" }]);
      expect(run.status).toBe("running");
      const last = JSON.parse(readFileSync(ndjsonPath(root, "hooks-dev-1"), "utf8").trim().split("\n").at(-1) ?? "{}");
      expect(last).toMatchObject({ type: "agent_done", summary: "Done", refs: ["a.ts"], plan_step: "RF-1", meta: { harness_session_id: "h-1" } });
      expect(readState(root, "hooks-dev-1")?.stats.events_by_type.agent_done).toBe(1);
      expect(() => withStoreTransaction(store, () => appendAgentDone(store.db, "missing", { summary: "x" }))).toThrow("Run not found: missing");
    } finally {
      closeStore(store);
    }
  });

  test("--artifacts lists", () => {
    expect(parseArtifactList(" a.ts, ,b.ts,a.ts")).toEqual(["a.ts", "b.ts"]);
    expect(parseArtifactList(undefined)).toEqual([]);
  });
});
