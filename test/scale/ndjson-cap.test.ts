/**
 * Issue 16 item 3: each session's events.ndjson is capped. A hooks session stays open for months, one line per
 * event; once the file holds 1 MiB the next append moves it to events.ndjson.1 (replacing the generation before it)
 * and starts a new one. The store stays the source of truth; session:guard reads the newest line of the two.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, lstatSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cleanupTemp, rows, runAioson, tempDir, tempProject } from "../helpers.ts";

afterAll(cleanupTemp);

const CAP = 1024 * 1024;

function emitWrite(project: string, file: string): void {
  const payload = { session_id: "claude-1", cwd: project, hook_event_name: "PostToolUse", tool_name: "Write", tool_input: { file_path: join(project, file), content: "x" }, tool_response: {} };
  expect(runAioson(["hooks:emit", project, "--agent=dev"], { stdin: JSON.stringify(payload) }).code).toBe(0);
}

function sessionFolder(project: string): string {
  const [run] = rows<{ session_key: string }>(project, "SELECT session_key FROM agent_runs");
  return join(project, ".aioson", "runtime", "live", String(run?.session_key).replaceAll(":", "__"));
}

/** Fills events.ndjson with old lines until it holds `bytes`, as months of hook events would. */
function fill(path: string, bytes: number, ts: string): number {
  const line = `${JSON.stringify({ ts, type: "artifact", summary: "Edit: src/old.ts", message: "Edit: src/old.ts", tool: "Edit", source: "claude", agent: "dev" })}\n`;
  const count = Math.ceil(bytes / line.length);
  writeFileSync(path, line.repeat(count));
  return count;
}

function lines(path: string): Array<Record<string, unknown>> {
  return readFileSync(path, "utf8").trimEnd().split("\n").map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe("events.ndjson is rotated at 1 MiB", () => {
  test("a full file becomes events.ndjson.1 and the next line starts a new one; two generations at most", () => {
    const project = tempProject();
    emitWrite(project, "src/first.ts");
    const folder = sessionFolder(project);
    const current = join(folder, "events.ndjson");
    const rotated = `${current}.1`;

    const old = fill(current, CAP, "2026-01-01T00:00:00.000Z");
    emitWrite(project, "src/a.ts");
    expect(lines(rotated)).toHaveLength(old);
    expect(lines(current).map((line) => line.summary)).toEqual(["Write: src/a.ts"]);

    // Below the cap the file grows as before.
    emitWrite(project, "src/b.ts");
    expect(lines(current).map((line) => line.summary)).toEqual(["Write: src/a.ts", "Write: src/b.ts"]);

    // The next rotation replaces the previous generation.
    const second = fill(current, CAP + 10, "2026-02-01T00:00:00.000Z");
    emitWrite(project, "src/c.ts");
    expect(lines(rotated)).toHaveLength(second);
    expect(lines(rotated)[0]?.ts).toBe("2026-02-01T00:00:00.000Z");
    expect(lines(current).map((line) => line.summary)).toEqual(["Write: src/c.ts"]);
    expect(readdirSync(folder).filter((name) => name.startsWith("events.ndjson")).sort()).toEqual(["events.ndjson", "events.ndjson.1"]);
    expect(statSync(current).size + statSync(rotated).size).toBeLessThan(2 * CAP + 4096);

    // The store holds every event whatever the files kept.
    expect(rows(project, "SELECT 1 FROM execution_events WHERE event_type = 'artifact'")).toHaveLength(4);
  });

  test("a live session's lines (runtime:emit) rotate the same way", () => {
    const project = tempProject();
    const started = runAioson(["live:start", project, "--tool=claude", "--agent=dev", "--no-launch", "--json"]).json as { sessionKey: string };
    const current = join(project, ".aioson", "runtime", "live", started.sessionKey.replaceAll(":", "__"), "events.ndjson");
    const old = fill(current, CAP, "2026-01-01T00:00:00.000Z");
    expect(runAioson(["runtime:emit", project, "--agent=dev", "--summary=after the cap"]).code).toBe(0);
    expect(lines(`${current}.1`)).toHaveLength(old);
    expect(lines(current).map((line) => line.summary)).toEqual(["after the cap"]);
  });

  test("a symlink where the rotated file goes is never written through: the file is not rotated, the line still appended", () => {
    const project = tempProject();
    emitWrite(project, "src/first.ts");
    const current = join(sessionFolder(project), "events.ndjson");
    const outside = join(tempDir("aioson-outside-"), "victim.txt");
    writeFileSync(outside, "keep me\n");
    symlinkSync(outside, `${current}.1`);
    const old = fill(current, CAP + 10, "2026-01-01T00:00:00.000Z");
    emitWrite(project, "src/after.ts");
    expect(readFileSync(outside, "utf8")).toBe("keep me\n");
    expect(lstatSync(`${current}.1`).isSymbolicLink()).toBe(true);
    expect(lines(current)).toHaveLength(old + 1);
    expect(lines(current).at(-1)?.summary).toBe("Write: src/after.ts");
  });

  test("session:guard reads the newest line: of the current file, else of the previous generation", () => {
    const project = tempProject();
    const started = runAioson(["session:guard", project, "--once", "--json"]).json as { sessionKey: string };
    const current = join(project, ".aioson", "runtime", "live", started.sessionKey, "events.ndjson");
    const recent = new Date(Date.now() - 5 * 60_000).toISOString();
    const stale = new Date(Date.now() - 3 * 3_600_000).toISOString();

    // Just rotated: the current file has no line yet, the previous generation was active 5 minutes ago.
    fill(`${current}.1`, 4096, recent);
    rmSync(current);
    expect((runAioson(["session:guard", project, "--once", "--json", "--idle-minutes=60"]).json as { closed: boolean }).closed).toBe(false);

    // The previous generation's last line is three hours old: the session is idle.
    fill(`${current}.1`, 4096, stale);
    if (existsSync(current)) rmSync(current);
    expect((runAioson(["session:guard", project, "--once", "--json", "--idle-minutes=60"]).json as { closed: boolean }).closed).toBe(true);
  });
});
