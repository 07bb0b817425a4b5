/**
 * Fuzz (issue 3): thousands of random and mutated payloads at the adapters and the classifier (no throw,
 * bounded well-formed records, in-root paths always made relative), and a sample through the binary
 * (exit 0, valid JSON, nothing written outside the project's runtime folder).
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, readdirSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { classify, eventName } from "../../src/emit/classify.ts";
import { isInside } from "../../src/core/project-root.ts";
import { adapterFor } from "../../src/harness/index.ts";
import { BINARY, cleanupTemp, tempDir, testEnv } from "../helpers.ts";

afterAll(cleanupTemp);

/** Deterministic PRNG so a failure can be replayed. */
function mulberry32(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const random = mulberry32(0xa105);
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;

const SOURCES = ["claude", "codex", "opencode", "antigravity", "copilot", "cursor", ""] as const;
const EVENTS = [null, "PostToolUse", "PostToolUseFailure", "UserPromptSubmit", "Stop", "PreCompact", "SessionEnd", "sessionend", "Bogus"] as const;
const TOOLS = ["Write", "Edit", "MultiEdit", "NotebookEdit", "apply_patch", "patch", "Bash", "shell", "Task", "Agent", "TodoWrite", "update_plan", "Skill", "Read", "mcp__x__y", "run_command", "write_to_file", "bash", "write", "todowrite", "WebFetch", "create_file", "multi_replace_string_in_file", "run_in_terminal", "manage_todo_list", "runSubagent", "editFiles", "", "💥"];

function randomString(): string {
  return pick([
    "",
    " ",
    "../../../../etc/passwd",
    "/etc/shadow",
    "C:\\Windows\\System32\\x.dll",
    "src/ok.ts",
    "./a/../../b",
    "\u0000\u0001\u202e",
    "*** Begin Patch\n*** Add File: ../../escape.ts\n*** Update File: src/x.ts\n*** Move to: /tmp/moved.ts\n*** Delete File: y\n*** End Patch",
    "/aioson:agent:qa go",
    "@dev",
    "Process exited with code 1",
    "Tests: 1 failed",
    "not ok 1 # TODO",
    "x".repeat(5000),
    "mysql -pHunter22 db",
    String(random()),
  ]);
}

function randomValue(depth = 0): unknown {
  const kind = Math.floor(random() * (depth > 2 ? 5 : 8));
  switch (kind) {
    case 0: return randomString();
    case 1: return Math.floor(random() * 1000) - 500;
    case 2: return null;
    case 3: return random() < 0.5;
    case 4: return undefined;
    case 5: return Array.from({ length: Math.floor(random() * 4) }, () => randomValue(depth + 1));
    default: {
      const out: Record<string, unknown> = {};
      for (let i = 0; i < Math.floor(random() * 5); i++) out[pick(["file_path", "command", "todos", "plan", "skill", "filePath", "TargetFile", "CommandLine", "stdout", "exit_code", "output", "replacements", "files", "todoList", "operation", "agentName", randomString()])] = randomValue(depth + 1);
      return out;
    }
  }
}

function seedPayload(project: string): Record<string, unknown> {
  return {
    hook_event_name: pick(EVENTS),
    session_id: pick(["S1", "ses_x", "", 12]),
    cwd: pick([project, join(project, "sub"), "/", "relative/dir", null]),
    tool_name: pick(TOOLS),
    tool_input: {
      file_path: pick([join(project, "src", "a.ts"), "b.ts", randomString()]),
      command: pick([randomString(), ["bash", "-lc", randomString()], [1, 2]]),
      todos: [{ content: randomString(), status: pick(["completed", "done", "active", 3]) }],
      skill: pick(["aioson:agent:planner", "pdf", randomString()]),
      replacements: pick([[{ filePath: randomString() }, { filePath: join(project, "c.ts") }, "x", null], randomString()]),
      todoList: [{ id: 1, title: randomString(), status: pick(["not-started", "in-progress", "completed", null]) }],
      operation: pick(["read", "write", 7]),
      agentName: pick(["Plan", randomString(), 3]),
    },
    timestamp: pick(["2026-11-29T10:00:00.000Z", 1_700_000_000_000, undefined]),
    tool_response: pick([randomString(), { stdout: randomString(), exit_code: pick([0, 1, "0", null]) }, null, 5]),
    prompt: randomString(),
    last_assistant_message: randomString(),
    toolCall: { name: pick(TOOLS), args: { TargetFile: randomString(), CommandLine: randomString() } },
  };
}

function mutate(payload: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = structuredClone(payload);
  const keys = Object.keys(out);
  for (let i = 0; i < 1 + Math.floor(random() * 3); i++) {
    const key = pick(keys);
    if (random() < 0.3) delete out[key];
    else out[key] = randomValue();
  }
  return out;
}

const ALLOWED_TYPES = new Set(["artifact", "step_done", "note", "agent_activated", "agent_message", "compaction", "session_ended"]);

describe("fuzz — adapters and classifier in-process", () => {
  test("3,000 random and mutated payloads: no throw, bounded records, in-root paths relative", () => {
    const project = tempDir("aioson-fuzz-");
    mkdirSync(join(project, ".aioson"), { recursive: true });
    for (let i = 0; i < 3000; i++) {
      const payload = i % 3 === 0 ? (randomValue() as Record<string, unknown>) : mutate(seedPayload(project));
      const raw = payload !== null && typeof payload === "object" && !Array.isArray(payload) ? payload : {};
      const source = pick(SOURCES) || "claude";
      const event = adapterFor(source)(raw);
      const name = eventName(pick([null, null, "SessionEnd", "PreCompact"]), event);
      const records = classify({ root: project, source, eventName: name }, event);
      for (const record of records) {
        expect(ALLOWED_TYPES.has(record.eventType)).toBe(true);
        expect(typeof record.message).toBe("string");
        expect(record.message.length).toBeLessThanOrEqual(1100);
        expect(JSON.stringify(record.payload).length).toBeLessThan(200_000);
        expect(JSON.stringify(record)).not.toContain("Hunter22");
        if (record.file !== undefined && isAbsolute(record.file)) expect(isInside(project, record.file) && record.file !== project).toBe(false);
      }
    }
  });
});

function snapshot(dir: string): string[] {
  return (readdirSync(dir, { recursive: true }) as string[]).sort();
}

describe("fuzz — a sample through the binary", () => {
  test("exit 0, valid JSON, writes only under <project>/.aioson/runtime", async () => {
    const outer = tempDir("aioson-fuzz-outer-");
    const project = join(outer, "proj");
    mkdirSync(join(project, ".aioson"), { recursive: true });
    await Bun.write(join(project, ".aioson", "config.md"), "# p\n");
    mkdirSync(join(outer, "sibling"));
    const home = tempDir("aioson-fuzz-home-");
    const before = snapshot(outer);
    for (let i = 0; i < 40; i++) {
      const payload = i % 4 === 0 ? JSON.stringify(randomValue()) : JSON.stringify(mutate(seedPayload(project)));
      const args = [BINARY, "hooks:emit", pick([project, join(project, "src"), outer]), `--source=${pick(SOURCES)}`, "--json", ...(i % 5 === 0 ? ["--event=SessionEnd"] : []), ...(i % 7 === 0 ? ["--then=agent:done"] : [])];
      const result = Bun.spawnSync(args, { stdin: new TextEncoder().encode(payload ?? ""), env: testEnv(home), cwd: home, timeout: 15_000 });
      expect(result.exitCode).toBe(0);
      expect(() => JSON.parse(result.stdout.toString())).not.toThrow();
    }
    const added = snapshot(outer).filter((path) => !before.includes(path));
    for (const path of added) expect(path.startsWith(join("proj", ".aioson", "runtime"))).toBe(true);
    // HOME gains only the projects registry (written when the store was created), naming only this project.
    expect(snapshot(home)).toEqual([".config", join(".config", "aioson"), join(".config", "aioson", "projects.json")]);
    const registry = JSON.parse(readFileSync(join(home, ".config", "aioson", "projects.json"), "utf8")) as { projects: Array<{ root: string }> };
    expect(registry.projects.map((entry) => entry.root)).toEqual([project]);
  }, 60_000);
});
