/**
 * One recorded session per harness (test/fixtures/sessions/<harness>.jsonl, payload shapes from
 * harness-protocols.md) replayed through the binary with the flags the installed hook lines pass
 * (spec 9.4–9.8); the rows, ndjson lines and final state must equal the golden file next to it.
 * Regenerate after a deliberate change with `UPDATE_GOLDEN=1 bun test test/emit/replay.test.ts` and
 * review the diff. `${HOME}` in a fixture is the hook's temp HOME; a line's `appendTranscript` entries are
 * appended (JSONL) to its payload's transcript file before the hook runs, as the harness would have written them.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { REPO_ROOT, cleanupTemp, rows, tempDir, tempProject } from "../helpers.ts";
import { emit, events, ndjsonLines, stateOf } from "./helpers.ts";

afterAll(cleanupTemp);

const FIXTURES = join(REPO_ROOT, "test", "fixtures", "sessions");
const PLACEHOLDER = "${ROOT}";
const HOME_PLACEHOLDER = "${HOME}";

type FixtureLine = { hook: string; payload: Record<string, unknown>; appendTranscript?: unknown[] };

/** The flags of the installed hook line that fires on `hook` (spec 9.4–9.8). */
const HOOK_FLAGS: Record<string, Record<string, string[]>> = {
  claude: { Stop: ["--then=agent:done"] },
  codex: { SessionEnd: ["--event=SessionEnd"] },
  opencode: {},
  antigravity: { Stop: ["--then=agent:done"], SessionEnd: ["--event=SessionEnd"] },
  copilot: { Stop: ["--then=agent:done"] },
};

function loadFixture(harness: string, root: string, home: string): FixtureLine[] {
  const escape = (path: string) => JSON.stringify(path).slice(1, -1);
  return readFileSync(join(FIXTURES, `${harness}.jsonl`), "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line.replaceAll(PLACEHOLDER, escape(root)).replaceAll(HOME_PLACEHOLDER, escape(home))) as FixtureLine);
}

function appendTranscript(line: FixtureLine): void {
  const path = line.payload.transcript_path;
  if (!line.appendTranscript || typeof path !== "string") return;
  mkdirSync(dirname(path), { recursive: true });
  appendFileSync(path, line.appendTranscript.map((entry) => `${JSON.stringify(entry)}\n`).join(""));
}

/** Replaces the temp root and the volatile keys/timestamps so runs compare equal. */
function stable(value: unknown, root: string): unknown {
  const text = JSON.stringify(value)
    .replaceAll(JSON.stringify(root).slice(1, -1), PLACEHOLDER)
    .replace(/"(hooks-[a-z0-9-]+?)-\d{13}(-\d+)?"/g, '"$1-<ms>"')
    .replace(/"([a-z0-9-]+?)-\d{13}(-\d+)?"/g, '"$1-<ms>"')
    .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/g, "<ts>");
  return JSON.parse(text);
}

function snapshot(project: string, results: unknown[]): Record<string, unknown> {
  const all = events(project);
  const sessionKeys = [...new Set(all.map((row) => row.session_key).filter((key): key is string => key !== null))];
  return {
    results,
    rows: all.map((row) => ({
      seq: row.sequence_no,
      event_type: row.event_type,
      message: row.message,
      tool_name: row.tool_name,
      phase: row.phase,
      harness_session_id: row.harness_session_id,
      session_key: row.session_key,
      payload: row.payload_json ? JSON.parse(row.payload_json) : null,
    })),
    runs: rows(project, "SELECT agent_name, source, status, summary, session_key FROM agent_runs ORDER BY rowid"),
    ndjson: Object.fromEntries(sessionKeys.map((key) => [key, ndjsonLines(project, key)])),
    state: Object.fromEntries(
      sessionKeys.map((key) => {
        const state = stateOf(project, key);
        return [key, { phase: state.phase, active_agent: state.active_agent, stats: state.stats, last_events: state.last_events, owner: state.owner }];
      }),
    ),
  };
}

describe("recorded sessions replay into the golden rows, lines and state", () => {
  for (const harness of ["claude", "codex", "opencode", "antigravity", "copilot"]) {
    test(harness, () => {
      const project = tempProject();
      const home = tempDir();
      const lines = loadFixture(harness, project, home);
      expect(lines.length).toBeGreaterThanOrEqual(30);
      const results = lines.map((line) => {
        appendTranscript(line);
        const run = emit(project, line.payload, ["--agent=dev", `--source=${harness}`, ...(HOOK_FLAGS[harness]?.[line.hook] ?? [])], { env: { HOME: home } });
        expect(run.code).toBe(0);
        return { hook: line.hook, result: run.result };
      });
      const actual = stable(snapshot(project, results), project);
      const goldenPath = join(FIXTURES, `${harness}.expected.json`);
      if (process.env.UPDATE_GOLDEN === "1" || !existsSync(goldenPath)) writeFileSync(goldenPath, `${JSON.stringify(actual, null, 2)}\n`);
      expect(actual).toEqual(JSON.parse(readFileSync(goldenPath, "utf8")));
    }, 60_000);
  }
});
