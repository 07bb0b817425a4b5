/**
 * Codex CLI 0.169.0 hook trust, with records the real TUI writes: the user has a hook group after aioson's; the TUI's
 * hooks review ("Trust all and continue", driven through tmux) records a hash per handler in config.toml. hooks:doctor
 * finds every aioson handler trusted; an identical reinstall leaves the file and the trust alone, and `codex exec`
 * without the bypass flag runs both aioson's hooks and the user's. A reinstall with another agent replaces aioson's
 * groups in place: Codex skips them (the doctor names each stale hash) and still runs the user's group after them.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { CodexRun } from "../lib/drivers/codex.ts";
import { CodexBench, ran, readIfExists } from "./bench.ts";

type Json = Record<string, any>;
type Issue = { code: string; message: string; fix: string };
type Doctor = { harnesses: Array<{ tool: string; trust?: Array<{ event: string; state: string; key: string; trustedHash: string | null }> }>; issues: Issue[] };

let bench: CodexBench;
let userLog: string;
let trustedRecords: string;
let identical: { stdout: string; sameBytes: boolean; sameMtime: boolean };
let trustedDoctor: Doctor;
let afterIdentical: CodexRun;
let userRunsAfterIdentical: string | null;
let afterAgent: CodexRun;
let staleDoctor: Doctor;

async function doctor(): Promise<Doctor> {
  return JSON.parse((await bench.aioson(["hooks:doctor", "--tool=codex", "--json"])).stdout) as Doctor;
}

const script = (n: number) => ({ turns: [{ tools: [{ name: "exec_command", input: { cmd: `echo run ${n}` } }] }, { text: `Run ${n} done.` }] });

beforeAll(async () => {
  bench = await CodexBench.create();
  userLog = join(bench.world.root, "user-hook.log");
  const hooks = JSON.parse(bench.readHooks()) as { hooks: Record<string, unknown[]> };
  hooks.hooks.PostToolUse = [...(hooks.hooks.PostToolUse ?? []), { matcher: "Bash", hooks: [{ type: "command", command: `echo user-hook >> "${userLog}"`, timeout: 10 }] }];
  writeFileSync(bench.hooksPath, `${JSON.stringify(hooks, null, 2)}\n`);

  const tui = bench.tui();
  tui.start();
  await tui.waitFor("Hooks need review");
  tui.keys("Down", "Enter"); // 2. Trust all and continue
  const config = join(bench.home, "config.toml");
  const deadline = Date.now() + 60_000;
  while ((readIfExists(config)?.match(/trusted_hash = /g)?.length ?? 0) < 7 && Date.now() < deadline) await Bun.sleep(200);
  tui.stop();
  trustedRecords = readFileSync(config, "utf8");
  trustedDoctor = await doctor();

  const before = { bytes: bench.readHooks(), mtime: statSync(bench.hooksPath).mtimeMs };
  const reinstall = await bench.aioson(["hooks:install", "--tool=codex"]);
  identical = { stdout: reinstall.stdout, sameBytes: bench.readHooks() === before.bytes, sameMtime: statSync(bench.hooksPath).mtimeMs === before.mtime };
  afterIdentical = await bench.run({ prompt: "first", bypassTrust: false, script: script(1) });
  userRunsAfterIdentical = readIfExists(userLog);

  expect((await bench.aioson(["hooks:install", "--tool=codex", "--agent=qa"])).code).toBe(0);
  afterAgent = await bench.run({ prompt: "second", bypassTrust: false, script: script(2) });
  staleDoctor = await doctor();
});

afterAll(() => bench?.stop());

describe("Codex CLI 0.169.0: hook trust as the TUI records it", () => {
  test("the TUI recorded a hash per handler, and hooks:doctor computes the same ones: all trusted", () => {
    expect(trustedRecords.match(/\[hooks\.state\."[^"]+hooks\.json:[a-z_]+:\d+:\d+"\]\ntrusted_hash = "sha256:[0-9a-f]{64}"/g)?.length).toBe(7);
    const trust = trustedDoctor.harnesses.find((harness) => harness.tool === "codex")?.trust ?? [];
    expect(trust.map((hook) => [hook.event, hook.state])).toEqual(["PostToolUse", "UserPromptSubmit", "Stop", "PreCompact", "SessionStart", "SessionEnd"].map((event) => [event, "trusted"]));
    expect(trustedDoctor.issues.filter((issue) => issue.code.startsWith("codex_"))).toEqual([]);
  });

  test("an identical reinstall touches nothing; codex exec without the bypass runs aioson's hooks and the user's", () => {
    expect(identical).toEqual({ stdout: expect.stringContaining("Nothing to do"), sameBytes: true, sameMtime: true });
    ran(afterIdentical, "UserPromptSubmit", "hooks:emit");
    ran(afterIdentical, "PostToolUse", "hooks:emit");
    ran(afterIdentical, "Stop", "hooks:emit");
    ran(afterIdentical, "SessionEnd", "--event=SessionEnd");
    expect(bench.events("harness_session_id = ? AND event_type = 'step_done'", afterIdentical.threadId).map((row) => row.payload.command)).toEqual(["echo run 1"]);
    expect(userRunsAfterIdentical).toBe("user-hook\n");
  });

  test("another agent: aioson's groups replaced in place, the user's group after them keeps its place and its trust", () => {
    const groups = (JSON.parse(bench.readHooks()) as Json).hooks.PostToolUse as Json[];
    expect(groups.map((group) => group.matcher)).toEqual(["apply_patch|Bash|update_plan", "Bash"]);
    expect(groups[0]?.hooks[0].command).toContain("--agent='qa'");
    // Codex skipped every changed aioson hook and still ran the user's.
    expect(afterAgent.hooks).toEqual([]);
    expect(bench.events("harness_session_id = ?", afterAgent.threadId)).toEqual([]);
    expect(readIfExists(userLog)).toBe("user-hook\nuser-hook\n");
  });

  test("hooks:doctor names each stale hash, the one the TUI recorded, with the fix", () => {
    const trust = staleDoctor.harnesses.find((harness) => harness.tool === "codex")?.trust ?? [];
    expect(trust.every((hook) => hook.state === "modified")).toBe(true);
    const stop = trust.find((hook) => hook.event === "Stop");
    const recorded = new RegExp(`\\[hooks\\.state\\."${stop?.key.replaceAll(".", "\\.")}"\\]\\ntrusted_hash = "(sha256:[0-9a-f]+)"`).exec(trustedRecords)?.[1];
    expect(stop?.trustedHash).toBe(recorded!);
    const stale = staleDoctor.issues.find((issue) => issue.code === "codex_trust_stale");
    expect(stale?.message).toContain(`Stop: trusted ${recorded}, now sha256:`);
    expect(stale?.fix).toContain("/hooks");
  });
});
