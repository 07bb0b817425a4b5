/**
 * src/recap/rows.ts reads W either through the indexes (a session among many) or as the id range from
 * the session's first row (a session that holds most of its rows). Both plans must give the rows of
 * spec 5.4: on a sparse and a dense session, the facts from the candidate rows equal the facts from
 * every row of W read the slow obvious way.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { deriveFacts } from "../src/recap/facts.ts";
import { harnessSessionRows, type EventRow } from "../src/recap/rows.ts";
import { cleanupTemp, tempProject } from "./helpers.ts";
import { HooksRecorder, fullWindow } from "./recap-helpers.ts";

afterAll(cleanupTemp);

/** `share` of every 4 events belongs to session S, the rest to OTHER; unlabelled runtime rows throughout. */
function seed(project: string, share: number): void {
  const r = new HooksRecorder(project, "dev");
  try {
    for (let i = 0; i < 160; i++) {
      const sid = i % 4 < share ? "S" : "OTHER";
      if (i % 13 === 5) r.runtime("task_blocked", `runtime ${i}`);
      else if (i % 40 === 20) r.compacted(sid);
      else if (i % 5 === 0) r.bash(sid, ["npm test", "npm run lint"][i % 2] as string, { outcome: i % 3 === 0 ? "failed" : "passed", exitCode: i % 3 === 0 ? 1 : 0, testRunner: i % 2 === 0 });
      else if (i % 7 === 0) r.plan(sid, [[`p${i}`, "completed"], [`q${i}`, "pending"]]);
      else if (i % 11 === 0) r.stop(sid, `message ${i}`);
      else r.write(sid, `src/f${i % 9}.ts`);
    }
    r.write("S", "src/last.ts");
  } finally {
    r.close();
  }
}

describe("recap window plans", () => {
  for (const [name, share] of [["sparse (a quarter of the rows)", 1], ["dense (three quarters of the rows)", 3]] as const) {
    test(`${name}: facts from candidate rows equal facts from the whole window`, () => {
      const project = tempProject();
      seed(project, share);
      const recorder = new HooksRecorder(project);
      try {
        const full = fullWindow(recorder.db, "S");
        const candidates = harnessSessionRows(recorder.db, "S");
        expect(candidates?.boundary).toBe(full.boundary);
        expect(full.boundary).toBeGreaterThan(0);
        expect(deriveFacts(candidates as { window: EventRow[]; boundary: number })).toEqual(deriveFacts(full));
        expect(deriveFacts(full).files.length).toBeGreaterThan(0);
      } finally {
        recorder.close();
      }
    });
  }
});
