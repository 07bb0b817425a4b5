/**
 * hooks:recap after a compaction in a long session: 2,000 recorded events of one harness session
 * (files, commands, plans, messages, two earlier compactions, runtime notes) in one hooks run.
 */
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Database } from "bun:sqlite";
import { closeStore, openStore, withStoreTransaction } from "../../src/store/db.ts";
import { appendRunEvent, type JsonObject } from "../../src/store/records.ts";
import { createSessionRows } from "../../src/session/sessions.ts";
import type { BenchCase } from "./types.ts";

const SESSION = "bench-recap-session";
const EVENTS = 2_000;

function record(db: Database, runKey: string, eventType: string, message: string, payload: JsonObject, session: string | null = SESSION): void {
  appendRunEvent(db, runKey, {
    eventType,
    message,
    phase: "live",
    status: "running",
    toolName: typeof payload.tool === "string" ? payload.tool : null,
    payload: session ? { written_by: "hooks:emit", harness_session_id: session, ...payload } : payload,
    harnessSessionId: session,
  });
}

/**
 * The i-th event of a realistic mix per 20 events: 8 edits (40 files in all), 7 commands (lint and
 * tests, a quarter failing), 2 plan updates, 2 turn-end messages, 1 sub-task; a runtime note every 200 events, a
 * handoff to @qa and back, and compactions at 700 and 1,400 (the current one is the last event).
 */
function recordEvent(db: Database, runKey: string, i: number): void {
  const slot = i % 20;
  if (i === 700 || i === 1400) record(db, runKey, "compaction", "Compaction (auto)", { trigger: "auto" });
  else if (i === 1 || i === 1200) record(db, runKey, "agent_activated", "Agent activated: @dev", { agent: "dev", via: "prompt" });
  else if (i === 1000) record(db, runKey, "agent_activated", "Agent activated: @qa", { agent: "qa", via: "skill" });
  else if (i % 200 === 99) record(db, runKey, "task_blocked", `Waiting on review ${i}`, { refs: [] }, null);
  else if (slot < 8) {
    const file = `src/feature-${i % 10}/module-${(i >> 3) % 4}.ts`;
    record(db, runKey, "artifact", `Edit: ${file}`, { tool: "Edit", file });
  } else if (slot < 15) {
    const test = slot % 3 === 0;
    const command = test ? `npm test -- --filter=suite-${i % 9}` : `npm run lint -- src/feature-${i % 10}`;
    const failed = i % 4 === 0;
    record(db, runKey, "step_done", `$ ${command}`, {
      tool: "Bash",
      command,
      outcome: failed ? "failed" : "passed",
      exit_code: failed ? 1 : 0,
      test_runner: test,
      ...(test ? { summary: failed ? "Tests: 1 failed, 41 passed" : "Tests: 42 passed" } : {}),
    });
  } else if (slot < 17) {
    const todos = Array.from({ length: 8 }, (_, n) => ({ content: `Step ${n + 1} of the plan (${i})`, status: n < (i % 8) ? "completed" : "pending" }));
    const done = todos.filter((todo) => todo.status === "completed").length;
    record(db, runKey, "note", "Task list updated", { tool: "TodoWrite", todos, done, total: 8, summary: `Tasks: ${done} of 8 done` });
  } else if (slot < 19) {
    const text = `Turn ${i}: updated the feature modules and re-ran the suite; ${i % 4 === 0 ? "one test still fails" : "all green"}.`;
    record(db, runKey, "agent_message", text.slice(0, 200), { text });
  } else {
    record(db, runKey, "note", `Explore feature ${i % 10}`, { tool: "Task", subagent_type: "general-purpose" });
  }
}

function seed(project: string): void {
  mkdirSync(join(project, ".aioson", "context"), { recursive: true });
  if (!existsSync(join(project, ".aioson", "config.md"))) writeFileSync(join(project, ".aioson", "config.md"), "# bench project\n");
  writeFileSync(join(project, ".aioson", "context", "dev-state.md"), "---\nactive_feature: cart\nnext_step: Phase 2 — totals\n---\n");
  const store = openStore(project);
  if (!store) throw new Error("could not open the bench store");
  try {
    withStoreTransaction(store, () => {
      const session = createSessionRows(store.db, {
        owner: "hooks",
        agent: "dev",
        tool: "claude",
        root: project,
        sessionKey: `hooks-dev-${Date.now()}`,
        title: "[hooks] dev via claude",
        startedMessage: "Auto-started by hooks:emit (claude)",
        meta: { auto_started: true },
        firstEventPayload: { tool_session: "claude", path: project, hooks_version: "1", written_by: "hooks:emit", harness_session_id: SESSION },
        harnessSessionId: SESSION,
      });
      for (let i = 1; i < EVENTS - 1; i++) recordEvent(store.db, session.runKey, i);
      record(store.db, session.runKey, "compaction", "Compaction (auto)", { trigger: "auto" });
    });
  } finally {
    closeStore(store);
  }
}

const cases: BenchCase[] = [
  {
    name: "hooks:recap compact, 2,000-event session",
    args: ["hooks:recap", "{project}", "--agent=dev", "--source=claude", "--json"],
    stdin: JSON.stringify({ session_id: SESSION, hook_event_name: "SessionStart", source: "compact", cwd: "." }),
    setup: seed,
    maxRatio: 2.5,
  },
];

export default cases;
