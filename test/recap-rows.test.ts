/**
 * The SQL of src/recap/rows.ts hands deriveFacts only the rows that can change a fact. This checks
 * that the reduction is exact: on seeded stores, the facts from the candidate rows equal the facts
 * from every row of the window W computed naively from spec 5.4.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { deriveFacts } from "../src/recap/facts.ts";
import { harnessSessionRows, type EventRow } from "../src/recap/rows.ts";
import { cleanupTemp, tempProject } from "./helpers.ts";
import { HooksRecorder, fullWindow } from "./recap-helpers.ts";

afterAll(cleanupTemp);

/** A deterministic pseudo-random session mixing every event kind, two windows and unlabelled rows. */
function seedMixedSession(project: string, seed: number): void {
  let state = seed;
  const next = (n: number) => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state % n;
  };
  const r = new HooksRecorder(project, "dev");
  try {
    for (let i = 0; i < 400; i++) {
      const sid = next(5) === 0 ? "OTHER" : next(9) === 0 ? null : "S";
      switch (next(11)) {
        case 0:
        case 1:
          r.write(sid, `src/f${next(25)}.ts`);
          break;
        case 2:
        case 3: {
          const command = ["npm test", "npm  test", "npm run lint", "go test ./...", "make", ""][next(6)] as string;
          const outcome = (["passed", "failed", "unknown"] as const)[next(3)] as "passed" | "failed" | "unknown";
          r.bash(sid, command, { outcome, exitCode: outcome === "failed" ? 1 + next(3) : outcome === "passed" ? 0 : null, testRunner: command.includes("test") });
          break;
        }
        case 4:
          r.plan(sid, [[`p${i}`, "completed"], [`q${i}`, ["pending", "in_progress"][next(2)] as string]], next(2) ? "TodoWrite" : "update_plan");
          break;
        case 5:
          r.task(sid, `sub-task ${i}`);
          break;
        case 6:
          r.activate(sid, ["qa", "dev", "planner", "../bad id"][next(4)] as string);
          break;
        case 7:
          r.stop(sid, `message ${i}`);
          break;
        case 8:
          // Half of them a compaction that happened (confirmed), half a PreCompact that gave up.
          if (next(4) === 0) {
            r.compact(sid);
            if (sid !== null && next(2) === 0) r.confirm(sid, r.lastMarker(sid));
          }
          break;
        case 9:
          r.runtime(["note", "task_blocked", "milestone", "update"][next(4)] as string, `runtime ${i}`);
          break;
        default:
          r.agentDone(sid);
      }
    }
    r.write("S", "src/last.ts");
  } finally {
    r.close();
  }
}

/** A `step_done` row with this exact payload text and message, in S's run. */
function rawStep(r: HooksRecorder, message: string, payload: string): void {
  const runKey = r.runKey as string;
  r.db
    .query(
      `INSERT INTO execution_events (run_key, agent_name, source, event_type, phase, status, message, payload_json, sequence_no, created_at, harness_session_id)
       VALUES (?, '@dev', 'live', 'step_done', 'live', 'running', ?, ?, (SELECT COALESCE(MAX(sequence_no), 0) + 1 FROM execution_events WHERE run_key = ?), ?, 'S')`,
    )
    .run(runKey, message, payload, runKey, new Date().toISOString());
}

describe("recap candidate rows", () => {
  test("a step whose payload only has a key ending in \"command\" hides no step that shares its text from `\"command\":` on", () => {
    const project = tempProject();
    const r = new HooksRecorder(project, "dev");
    try {
      r.write("S", "src/a.ts");
      const tail = `"command":"npm test","outcome":"failed","exit_code":1,"test_runner":false,"written_by":"hooks:emit","harness_session_id":"S"}`;
      rawStep(r, "$ npm test", `{"tool":"Bash",${tail}`);
      // JSON.parse finds no command in it: the command is its message's.
      rawStep(r, "$ make", `{"tool":"Bash","a\\"${tail.slice(1)}`);
    } finally {
      r.close();
    }
    const recorder = new HooksRecorder(project);
    try {
      const facts = deriveFacts(harnessSessionRows(recorder.db, "S") as { window: EventRow[]; boundary: number });
      expect(facts.failing).toEqual([{ command: "make", exitCode: 1 }, { command: "npm test", exitCode: 1 }]);
      expect(facts).toEqual(deriveFacts(fullWindow(recorder.db, "S")));
    } finally {
      recorder.close();
    }
  });

  for (const seed of [1, 7, 42]) {
    test(`seed ${seed}: facts from candidate rows equal facts from the whole window`, () => {
      const project = tempProject();
      seedMixedSession(project, seed);
      const recorder = new HooksRecorder(project);
      try {
        const full = fullWindow(recorder.db, "S");
        const candidates = harnessSessionRows(recorder.db, "S");
        expect(candidates?.boundary).toBe(full.boundary);
        expect(candidates?.window.length).toBeLessThan(full.window.length);
        expect(deriveFacts(candidates as { window: EventRow[]; boundary: number })).toEqual(deriveFacts(full));
      } finally {
        recorder.close();
      }
    });
  }
});
