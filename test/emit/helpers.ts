/** Helpers for the hooks:emit suites: run the real binary with a payload, read rows and live files back. */
import { existsSync, readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";
import { rows, runAioson, type RunResult } from "../helpers.ts";

export type EmitRun = RunResult & { result: Record<string, unknown> };

export function emit(
  project: string,
  payload: unknown,
  args: readonly string[] = [],
  options: { env?: Record<string, string | undefined>; cwd?: string; dir?: string } = {},
): EmitRun {
  const stdin = payload === null ? null : typeof payload === "string" ? payload : JSON.stringify(payload);
  const run = runAioson(["hooks:emit", options.dir ?? project, ...args, "--json"], { stdin, env: options.env, cwd: options.cwd });
  return { ...run, result: (run.json ?? {}) as Record<string, unknown> };
}

export type EventRow = {
  id: number;
  run_key: string | null;
  task_key: string | null;
  event_type: string;
  message: string;
  payload_json: string | null;
  sequence_no: number;
  harness_session_id: string | null;
  tool_name: string | null;
  phase: string | null;
  status: string | null;
  session_key: string | null;
};

export function events(project: string): EventRow[] {
  return rows<EventRow>(project, "SELECT * FROM execution_events ORDER BY id");
}

export function payloadOf(row: EventRow | undefined): Record<string, unknown> {
  return row?.payload_json ? (JSON.parse(row.payload_json) as Record<string, unknown>) : {};
}

export function storeExists(project: string): boolean {
  return existsSync(join(project, ".aioson", "runtime", "aios.sqlite"));
}

export function liveDirOf(project: string, sessionKey: string): string {
  return join(project, ".aioson", "runtime", "live", sessionKey.replaceAll(":", "__"));
}

export function ndjsonLines(project: string, sessionKey: string): Record<string, unknown>[] {
  const path = join(liveDirOf(project, sessionKey), "events.ndjson");
  if (!existsSync(path)) return [];
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

export function stateOf(project: string, sessionKey: string): Record<string, unknown> {
  return JSON.parse(readFileSync(join(liveDirOf(project, sessionKey), "state.json"), "utf8")) as Record<string, unknown>;
}

/** Every file under a directory (relative paths), for "nothing else was written" assertions. */
export function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return (readdirSync(dir, { recursive: true }) as string[]).sort();
}

export function hookLog(project: string): string {
  const path = join(project, ".aioson", "runtime", "hooks.log");
  return existsSync(path) ? readFileSync(path, "utf8") : "";
}
