/**
 * A FIFO where a guard expects a small project file — a lesson, kit.json, a reminder text, a commit message file, a
 * manifest, the transcript, aioson-models.json, the file being edited — is refused without blocking: every hook
 * answers (exit 0, within the test's timeout) as if the file were not there.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { cleanupTemp, runAioson, tempProject } from "../helpers.ts";
import { runGuard } from "../kit/helpers.ts";

afterAll(cleanupTemp);

function fifo(path: string): void {
  const made = Bun.spawnSync(["mkfifo", path]);
  if (made.exitCode !== 0) throw new Error(`mkfifo ${path}`);
}

const TIMEOUT = { timeoutMs: 5_000 };

describe("FIFOs in place of project files", () => {
  test("lesson-injector: a FIFO lesson and a FIFO kit.json", () => {
    const project = tempProject({ ".aioson/lessons/L002-ok.md": "---\ntags: [fix]\nconfidence: 0.5\n---\nRead the logs.\n", ".aioson/hooks/.keep": "" });
    fifo(join(project, ".aioson/lessons/L001-fifo.md"));
    const run = runGuard("lesson-injector", { hook_event_name: "UserPromptSubmit", prompt: "fix the bug" }, { dir: project });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Read the logs.");
    fifo(join(project, ".aioson/hooks/kit.json"));
    expect(runGuard("lesson-injector", { hook_event_name: "UserPromptSubmit", prompt: "fix the bug" }, { dir: project }).code).toBe(0);
  });

  test("stop-checklist: a FIFO reminder text falls back to the built-in one", () => {
    const project = tempProject({ ".aioson/hooks/.keep": "" });
    fifo(join(project, ".aioson/hooks/stop-checklist.md"));
    const run = runGuard("stop-checklist", { hook_event_name: "Stop" }, { dir: project });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Did you run tests?");
  });

  test("pre-commit-guard: git commit -F <fifo> is denied as unreadable", () => {
    const project = tempProject();
    fifo(join(project, "msg.txt"));
    const run = runGuard("pre-commit-guard", { hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "git commit -F msg.txt" } }, { dir: project });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("cannot be read");
  });

  test("verify-claims and context-confidence-check: a FIFO transcript", () => {
    const project = tempProject();
    const path = join(project, "transcript.jsonl");
    fifo(path);
    expect(runGuard("verify-claims", { hook_event_name: "Stop", transcript_path: path }, { dir: project }).code).toBe(0);
    expect(runGuard("context-confidence-check", { hook_event_name: "Stop", transcript_path: path }, { dir: project }).code).toBe(0);
  });

  test("session-context: a FIFO package.json", () => {
    const project = tempProject();
    Bun.spawnSync(["git", "init", "-q", project]);
    fifo(join(project, "package.json"));
    const run = runGuard("session-context", { hook_event_name: "SessionStart", source: "startup" }, { dir: project });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("Project: aioson-proj-");
  });

  test("session-context and pre-commit-guard: a FIFO for .git/HEAD costs one git budget per hook, not one per git call", () => {
    const project = tempProject();
    Bun.spawnSync(["git", "init", "-q", project]);
    rmSync(join(project, ".git", "HEAD"));
    fifo(join(project, ".git", "HEAD"));
    const started = performance.now();
    expect(runGuard("session-context", { hook_event_name: "SessionStart", source: "startup" }, { dir: project }).code).toBe(0);
    // Every git call waited 3 s for the FIFO before: 6 s for a config read and a status.
    expect(performance.now() - started).toBeLessThan(5_000);
    // git cannot say whether `st` is an alias of this repository: the guard asks.
    const run = runGuard("pre-commit-guard", { hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "git st" } }, { dir: project });
    expect(run.stdout).toContain('"permissionDecision":"ask"');
  });

  test("context:guard: a FIFO aioson-models.json and a FIFO as the edited file", () => {
    const project = tempProject();
    fifo(join(project, "aioson-models.json"));
    fifo(join(project, "edited.js"));
    const event = { hook_event_name: "PreToolUse", tool_name: "Edit", tool_input: { file_path: join(project, "edited.js"), old_string: "a", new_string: "price" } };
    const run = runAioson(["context:guard", project, "--json"], { stdin: JSON.stringify(event), ...TIMEOUT });
    expect(run.code).toBe(0);
  });
});
