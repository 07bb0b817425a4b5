/** What hooks:emit records for the OpenTelemetry export besides the spec's columns: the harness and the tool's duration. */
import { afterAll, expect, test } from "bun:test";
import { cleanupTemp, rows, tempProject } from "../helpers.ts";
import { emit } from "./helpers.ts";

afterAll(cleanupTemp);

type Row = { event_type: string; harness: string | null; duration_ms: number | null; payload_json: string | null };

test("every hooks:emit row names its harness; a tool call keeps the duration the harness reported, and only a sane one", () => {
  const project = tempProject();
  emit(project, { hook_event_name: "PostToolUse", session_id: "S", tool_name: "Write", tool_input: { file_path: "a.ts" }, duration_ms: 21.4 }, ["--source=claude"]);
  emit(project, { hook_event_name: "PostToolUseFailure", session_id: "S", tool_name: "Bash", tool_input: { command: "false" }, error: "Exit code 1", duration_ms: 950 }, ["--source=claude"]);
  emit(project, { hook_event_name: "PostToolUse", session_id: "S", tool_name: "Write", tool_input: { file_path: "b.ts" }, duration_ms: -5 }, ["--source=claude"]);
  emit(project, { hook_event_name: "PostToolUse", session_id: "S", tool_name: "Write", tool_input: { file_path: "c.ts" }, duration_ms: "12" }, ["--source=claude"]);
  emit(project, { hook_event_name: "PostToolUse", session_id: "C", tool_name: "apply_patch", tool_input: { command: "*** Begin Patch\n*** Add File: d.ts\n+x\n*** Add File: e.ts\n+y\n*** End Patch" } }, ["--source=codex"]);
  const recorded = rows<Row>(project, "SELECT event_type, harness, duration_ms, payload_json FROM execution_events ORDER BY id");
  expect(recorded.map((row) => [row.event_type, row.harness, row.duration_ms])).toEqual([
    ["session_started", null, null],
    ["artifact", "claude", 21],
    ["step_done", "claude", 950],
    ["artifact", "claude", null],
    ["artifact", "claude", null],
    ["artifact", "codex", null],
    ["artifact", "codex", null],
  ]);
  // The payloads keep the spec's shape: the duration lives in its own column.
  expect(JSON.parse(recorded[1]?.payload_json ?? "null")).toEqual({ tool: "Write", file: "a.ts", written_by: "hooks:emit", harness_session_id: "S" });
});
