/**
 * How the payload reaches hooks:emit depends on the harness: Codex and shell pipelines give a pipe, Node-based
 * harnesses (Claude Code) and Bun a socket, scripts a file. A pipe or a file is read without waiting for
 * what is already there; whatever is still to come goes through the stream with spec 0.4's bounds.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { BINARY, cleanupTemp, tempDir, tempProject, testEnv } from "../helpers.ts";
import { events, hookLog } from "./helpers.ts";

afterAll(cleanupTemp);

function writePayload(project: string, name: string, content = "x"): Record<string, unknown> {
  return { hook_event_name: "PostToolUse", tool_name: "Write", session_id: "S", tool_input: { file_path: join(project, name), content } };
}

/**
 * Runs `aioson hooks:emit` at the end of a shell pipeline whose left side is `producer` (env A and B hold text);
 * `answeredAfterMs` is when hooks:emit exited, counted from the start of the pipeline.
 */
async function throughShellPipe(project: string, producer: string, env: Record<string, string>, extra: readonly string[] = []) {
  const mark = join(tempDir(), "answered");
  const started = Date.now();
  const consumer = `{ "$BIN" hooks:emit "$PROJECT" --json ${extra.join(" ")}; code=$?; date +%s%3N > "$MARK"; exit $code; }`;
  const proc = Bun.spawn(["sh", "-c", `${producer} | ${consumer}`], {
    env: testEnv(tempDir(), { ...env, BIN: BINARY, PROJECT: project, MARK: mark }),
    stdout: "pipe",
    stderr: "pipe",
  });
  const code = await proc.exited;
  const answeredAfterMs = Number(readFileSync(mark, "utf8").trim()) - started;
  return { code, answeredAfterMs, result: JSON.parse(await new Response(proc.stdout).text()) as Record<string, unknown> };
}

describe("hooks:emit — stdin kinds", () => {
  test("a pipe whose writer pauses in the middle of the payload: the rest is awaited, the event lands whole", async () => {
    const project = tempProject();
    const text = JSON.stringify(writePayload(project, "src/paused.ts"));
    const run = await throughShellPipe(project, `(printf '%s' "$A"; sleep 0.3; printf '%s' "$B")`, { A: text.slice(0, 40), B: text.slice(40) });
    expect(run.code).toBe(0);
    expect(run.result).toMatchObject({ ok: true, event: "artifact", message: "Write: src/paused.ts" });
  });

  test("a pipe that is never closed (Antigravity): a whole object then silence is taken, long before the writer ends", async () => {
    const project = tempProject();
    const payload = { conversationId: "c6f0", toolCall: { name: "write_to_file", args: { TargetFile: join(project, "app", "pipe.rb") } }, workspacePaths: [project] };
    const run = await throughShellPipe(project, `(printf '%s' "$A"; sleep 3)`, { A: JSON.stringify(payload) }, ["--source=antigravity"]);
    expect(run.code).toBe(0);
    expect(run.result).toMatchObject({ ok: true, message: "Write: app/pipe.rb" });
    expect(run.answeredAfterMs).toBeLessThan(2_000);
    expect(events(project).map((row) => row.message)).toContain("Write: app/pipe.rb");
  });

  test("a file larger than one read chunk is read to its end", () => {
    const project = tempProject();
    const file = join(tempDir(), "payload.json");
    writeFileSync(file, JSON.stringify(writePayload(project, "src/big.ts", "y".repeat(300_000))));
    const result = Bun.spawnSync([BINARY, "hooks:emit", project, "--json"], { stdin: Bun.file(file), env: testEnv(tempDir()) });
    expect(result.exitCode).toBe(0);
    expect(JSON.parse(result.stdout.toString())).toMatchObject({ ok: true, message: "Write: src/big.ts" });
    expect(hookLog(project)).not.toContain("no payload");
  });

  test("a socket, as Node-based harnesses give their hooks, is read through the stream", async () => {
    const project = tempProject();
    const proc = Bun.spawn([BINARY, "hooks:emit", project, "--json"], { stdin: "pipe", stdout: "pipe", env: testEnv(tempDir()) });
    proc.stdin.write(JSON.stringify(writePayload(project, "src/socket.ts")));
    proc.stdin.end();
    expect(await proc.exited).toBe(0);
    expect(JSON.parse(await new Response(proc.stdout).text())).toMatchObject({ ok: true, message: "Write: src/socket.ts" });
  });
});
