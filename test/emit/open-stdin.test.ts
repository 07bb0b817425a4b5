/**
 * Antigravity's runner is reported never to close the hook's stdin (harness-protocols 4.3/6.4). For
 * `--source=antigravity`, hooks:emit takes a whole JSON object followed by a short silence as the payload;
 * anything else still ends at spec 0.4's bound, so the agent is never held.
 */
import { afterAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { BINARY, cleanupTemp, tempDir, tempProject, testEnv } from "../helpers.ts";
import { events, hookLog, storeExists } from "./helpers.ts";

afterAll(cleanupTemp);

type Spawned = ReturnType<typeof spawnEmit>;

function spawnEmit(project: string, source: string) {
  return Bun.spawn([BINARY, "hooks:emit", project, `--source=${source}`, "--json"], { stdin: "pipe", stdout: "pipe", env: testEnv(tempDir()) });
}

/** Waits for the process to exit on its own while its stdin is still open; kills it past the bound. */
async function exitWithOpenStdin(proc: Spawned, boundMs: number): Promise<number | "hung"> {
  const bound = new Promise<"hung">((settle) => setTimeout(() => settle("hung"), boundMs));
  const outcome = await Promise.race([proc.exited, bound]);
  if (outcome === "hung") proc.kill(9);
  return outcome;
}

const sleep = (ms: number) => new Promise((settle) => setTimeout(settle, ms));

function writePayload(project: string, name: string) {
  return { conversationId: "c6f0", toolCall: { name: "write_to_file", args: { TargetFile: join(project, "app", name) } }, workspacePaths: [project] };
}

describe("hooks:emit --source=antigravity with a stdin that is never closed", () => {
  test("a whole JSON object followed by silence is recorded, and the process exits with stdin still open", async () => {
    const project = tempProject();
    const proc = spawnEmit(project, "antigravity");
    proc.stdin.write(JSON.stringify(writePayload(project, "invoice.rb")));
    proc.stdin.flush();
    const outcome = await exitWithOpenStdin(proc, 4_000);
    expect(outcome).toBe(0);
    proc.stdin.end();
    expect(JSON.parse(await new Response(proc.stdout).text())).toMatchObject({ ok: true, event: "artifact", message: "Write: app/invoice.rb", harnessSessionId: "c6f0" });
    expect(events(project).map((row) => row.message)).toEqual(["Auto-started by hooks:emit (antigravity)", "Write: app/invoice.rb"]);
    expect(hookLog(project)).not.toContain("no payload");
  });

  test("a pause in the middle of the object is not taken for its end", async () => {
    const project = tempProject();
    const text = JSON.stringify(writePayload(project, "user.rb"));
    const proc = spawnEmit(project, "antigravity");
    proc.stdin.write(text.slice(0, 25));
    proc.stdin.flush();
    await sleep(300);
    proc.stdin.write(text.slice(25));
    proc.stdin.flush();
    expect(await exitWithOpenStdin(proc, 4_000)).toBe(0);
    proc.stdin.end();
    expect(JSON.parse(await new Response(proc.stdout).text())).toMatchObject({ ok: true, message: "Write: app/user.rb" });
  });

  test("a UTF-8 BOM in front of the object (Windows) is accepted too", async () => {
    const project = tempProject();
    const proc = spawnEmit(project, "antigravity");
    proc.stdin.write(`\uFEFF${JSON.stringify(writePayload(project, "bom.rb"))}`);
    proc.stdin.flush();
    expect(await exitWithOpenStdin(proc, 4_000)).toBe(0);
    proc.stdin.end();
    expect(JSON.parse(await new Response(proc.stdout).text())).toMatchObject({ ok: true, message: "Write: app/bom.rb" });
  });

  test("an object that never completes still ends at the total bound: nothing stored, the cause logged", async () => {
    const project = tempProject();
    const proc = spawnEmit(project, "antigravity");
    proc.stdin.write('{"conversationId":"c6f0","toolCall":{"name":"write_to_file"');
    proc.stdin.flush();
    const outcome = await exitWithOpenStdin(proc, 9_000);
    expect(outcome).toBe(0);
    proc.stdin.end();
    expect(JSON.parse(await new Response(proc.stdout).text())).toEqual({ ok: true, skipped: true });
    expect(hookLog(project)).toContain("no payload (timeout)");
    expect(storeExists(project)).toBe(false);
  }, 15_000);
});
