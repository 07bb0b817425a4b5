/** The guard fixture project, copied into a temp dir per suite so that tests may edit it. */
import { cpSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { REPO_ROOT, runAioson, tempDir, type RunResult } from "../helpers.ts";

export const FIXTURE = join(REPO_ROOT, "test", "fixtures", "guard-project");

export function fixtureProject(): string {
  const dir = tempDir("aioson-guard-");
  cpSync(FIXTURE, dir, { recursive: true });
  return dir;
}

export function writeFiles(root: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(root, path, ".."), { recursive: true });
    writeFileSync(join(root, path), text);
  }
}

export type GuardRun = RunResult & { text: string; rules: string[] };

/** Runs `context:guard <project> --json` with the event on stdin. */
export function guard(project: string, event: unknown, args: string[] = [], env: Record<string, string | undefined> = {}): GuardRun {
  const run = runAioson(["context:guard", project, "--json", ...args], { stdin: JSON.stringify(event), env });
  const payload = run.json as { hookSpecificOutput?: { additionalContext?: string } } | undefined;
  const text = payload?.hookSpecificOutput?.additionalContext ?? "";
  const rules = [...text.matchAll(/^Rule (\S+?)(?::$| — )/gm)].map((m) => m[1] as string);
  return { ...run, text, rules };
}

export function write(file: string, content: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { hook_event_name: "PreToolUse", session_id: "s-1", tool_name: "Write", tool_input: { file_path: file, content }, ...extra };
}

export function edit(file: string, oldString: string, newString: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { hook_event_name: "PreToolUse", session_id: "s-1", tool_name: "Edit", tool_input: { file_path: file, old_string: oldString, new_string: newString }, ...extra };
}
