import { afterAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { cleanupTemp, tempDir, tempProject } from "../helpers.ts";
import { claude, codex, copilot, jsonl, reasonOf, runGuard } from "./helpers.ts";

afterAll(cleanupTemp);

function stop(lines: readonly unknown[] | null, extra: Record<string, unknown> = {}) {
  const dir = tempDir("aioson-tr-");
  const path = join(dir, "transcript.jsonl");
  if (lines) writeFileSync(path, jsonl(lines));
  return { session_id: "s1", hook_event_name: "Stop", stop_hook_active: false, transcript_path: path, cwd: dir, ...extra };
}

function blocked(run: ReturnType<typeof runGuard>): boolean {
  return run.output?.decision === "block";
}

type ClaimCase = [label: string, payload: Record<string, unknown>, unverified: string[] | null];

const Q = "/home/dev/acme";
const CLAIMS: ClaimCase[] = [
  ["a path no tool touched", stop([claude.user("fix it"), claude.text("I changed src/utils/helpers.ts.")]), ["src/utils/helpers.ts"]],
  ["Read of the absolute path verifies the relative mention", stop([claude.user("x"), claude.tool("Read", { file_path: `${Q}/src/utils/helpers.ts` }), claude.text("See src/utils/helpers.ts")]), null],
  ["an absolute mention verified by a relative tool path", stop([claude.user("x"), claude.tool("Read", { file_path: "src/app/main.ts" }), claude.text(`Look at ${Q}/src/app/main.ts`)]), null],
  ["mentions of an earlier turn are out of scope", stop([claude.user("a"), claude.text("src/old/legacy.ts is odd"), claude.user("b"), claude.text("Done.")]), null],
  ["a tool call of an earlier turn does not verify", stop([claude.user("a"), claude.tool("Read", { file_path: "src/lib/cache.ts" }), claude.user("b"), claude.text("src/lib/cache.ts is fine")]), ["src/lib/cache.ts"]],
  ["paths shorter than 6 characters are ignored", stop([claude.user("x"), claude.text("Edit a/b.c now")]), null],
  ["a search result lists the file", stop([claude.user("x"), claude.tool("Grep", { pattern: "foo" }), claude.result("src/db/pool.ts:12: foo()"), claude.text("foo lives in src/db/pool.ts")]), null],
  ["a shell command touched the file", stop([claude.user("x"), claude.tool("Bash", { command: "cat src/x/config.ts | head" }), claude.text("src/x/config.ts sets retries")]), null],
  ["at most 10 paths are listed", stop([claude.user("x"), claude.text(Array.from({ length: 12 }, (_, i) => `src/mod${i}/file${i}.ts`).join("\n"))]), Array.from({ length: 10 }, (_, i) => `src/mod${i}/file${i}.ts`)],
  ["a line marked assumed is skipped", stop([claude.user("x"), claude.text("src/guess/thing.ts (assumed, not checked)")]), null],
  ["a bare file name in inline code counts", stop([claude.user("x"), claude.text("Updated `package.json` scripts")]), ["package.json"]],
  ["prose words with dots are not paths", stop([claude.user("x"), claude.text("Node.js and Vue.js work, e.g. in prod.")]), null],
  ["URLs are not paths", stop([claude.user("x"), claude.text("See https://example.com/docs/guide.md")]), null],
  ["stop_hook_active passes", stop([claude.user("x"), claude.text("src/utils/helpers.ts")], { stop_hook_active: true }), null],
  ["an unreadable transcript passes", { hook_event_name: "Stop", transcript_path: "/nonexistent/t.jsonl", last_assistant_message: "src/a/b/c.ts" }, null],
  ["Codex rollout: shell arrays verify", stop([codex.user("x"), codex.tool("shell", { command: ["bash", "-lc", "sed -n 1,20p src/core/app.rs"] }), codex.text("src/core/app.rs and src/core/lib.rs")]), ["src/core/lib.rs"]],
  ["Copilot transcript: read_file verifies", stop([copilot.user("x"), copilot.tool("read_file", { filePath: `${Q}/src/ui/button.tsx` }), copilot.text("src/ui/button.tsx renders")]), null],
  ["last_assistant_message counts once the transcript holds it", stop([claude.user("x"), claude.text("Wrote docs/guide/setup.md")], { last_assistant_message: "Wrote docs/guide/setup.md" }), ["docs/guide/setup.md"]],
  ["Windows separators match", stop([claude.user("x"), claude.tool("Edit", { file_path: "C:\\dev\\acme\\src\\win\\file.ts" }), claude.text("Edited src\\win\\file.ts")]), null],
  ["a :line suffix is stripped", stop([claude.user("x"), claude.tool("Read", { file_path: "src/app/main.ts" }), claude.text("bug at src/app/main.ts:42")]), null],
  ["apply_patch headers verify", stop([codex.user("x"), { type: "response_item", payload: { type: "custom_tool_call", name: "apply_patch", input: "*** Begin Patch\n*** Update File: src/p/query.ts\n*** End Patch" } }, codex.text("Patched src/p/query.ts")]), null],
  ["a sub-agent's inlined prompt does not end the turn", stop([claude.user("go"), claude.tool("Read", { file_path: "src/k/kappa.ts" }), { ...claude.user("sub-agent task"), isSidechain: true }, claude.text("src/k/kappa.ts checked")]), null],
  ["tool_result lines are not the user's message", stop([claude.user("go"), claude.tool("Read", { file_path: "src/z/zeta.ts" }), claude.result("ok"), claude.text("src/z/zeta.ts read")]), null],
];

describe("guard:verify-claims", () => {
  test.each(CLAIMS)("%s", (_label, payload, unverified) => {
    const run = runGuard("verify-claims", payload);
    expect(run.code).toBe(0);
    if (unverified === null) {
      expect(run.stdout).toBe("");
      return;
    }
    expect(blocked(run)).toBe(true);
    const reason = reasonOf(run);
    expect(reason).toStartWith("UNVERIFIED FILE REFERENCES");
    const listed = reason.slice(reason.indexOf(": ") + 2, reason.indexOf(". Verify")).split(", ");
    expect(listed).toEqual(unverified);
  });
});

function table(rows: Array<[string, string, string]>): string {
  return ["Context:", "", "| Axis | Confidence | Justification | Tools used |", "|---|---|---|---|", ...rows.map(([axis, level, tools]) => `| ${axis} | ${level} | because | ${tools} |`)].join("\n");
}

type ConfidenceCase = [label: string, payload: Record<string, unknown>, faults: string[] | null];

const CONFIDENCE: ConfidenceCase[] = [
  ["no table passes", stop([claude.user("x"), claude.text("All done.")]), null],
  ["high rows need nothing", stop([claude.user("x"), claude.text(table([["Scope", "🟢 High", ""]]))]), null],
  ["medium row without tools blocks", stop([claude.user("x"), claude.text(table([["Dependencies", "🟡 Medium", ""]]))]), ["Dependencies"]],
  ["low row with a tool really called passes", stop([claude.user("x"), claude.tool("Grep", { pattern: "x" }), claude.text(table([["Data", "🔴 Low", "Grep"]]))]), null],
  ["a listed tool never called blocks", stop([claude.user("x"), claude.text(table([["API", "🟡", "WebSearch"]]))]), ["API"]],
  ["the word Medium counts", stop([claude.user("x"), claude.text(table([["Risk", "Medium", ""]]))]), ["Risk"]],
  ["the word Low counts", stop([claude.user("x"), claude.text(table([["Risk", "low", "n/a"]]))]), ["Risk"]],
  ["Portuguese médio counts", stop([claude.user("x"), claude.text(table([["Escopo", "Médio", "—"]]))]), ["Escopo"]],
  ["a dash is an empty tools cell", stop([claude.user("x"), claude.text(table([["Tests", "🟡 Medium", "-"]]))]), ["Tests"]],
  ["several tools, all called", stop([claude.user("x"), claude.tool("Read", {}), claude.tool("Grep", {}), claude.text(table([["Code", "🟡", "Read, Grep"]]))]), null],
  ["several tools, one missing", stop([claude.user("x"), claude.tool("Read", {}), claude.text(table([["Code", "🟡", "Read, Grep"]]))]), ["Code"]],
  ["backticks around tool names", stop([claude.user("x"), claude.tool("Read", {}), claude.text(table([["Code", "🔴", "`Read`"]]))]), null],
  ["a tool called in an earlier turn counts", stop([claude.user("a"), claude.tool("Glob", {}), claude.user("b"), claude.text(table([["Layout", "🟡", "Glob"]]))]), null],
  ["tool names are case-insensitive", stop([claude.user("x"), claude.tool("Grep", {}), claude.text(table([["Data", "🟡", "grep"]]))]), null],
  ["stop_hook_active passes", stop([claude.user("x"), claude.text(table([["Deps", "🟡", ""]]))], { stop_hook_active: true }), null],
  ["a table in last_assistant_message the transcript holds", stop([claude.user("x"), claude.text(table([["Perf", "🔴 Low", ""]]))], { last_assistant_message: table([["Perf", "🔴 Low", ""]]) }), ["Perf"]],
  ["Codex: shell calls count", stop([codex.user("x"), codex.tool("shell", { command: ["ls"] }), codex.text(table([["Files", "🟡", "shell"]]))]), null],
  ["Copilot: grep_search calls count", stop([copilot.user("x"), copilot.tool("grep_search", { query: "x" }), copilot.text(table([["Usage", "🟡", "grep_search"]]))]), null],
  ["every faulty row is named", stop([claude.user("x"), claude.text(table([["One", "🟡", ""], ["Two", "🟢", ""], ["Three", "🔴", "Task"]]))]), ["One", "Three"]],
];

describe("guard:context-confidence-check", () => {
  test.each(CONFIDENCE)("%s", (_label, payload, faults) => {
    const run = runGuard("context-confidence-check", payload);
    expect(run.code).toBe(0);
    if (faults === null) {
      expect(run.stdout).toBe("");
      return;
    }
    expect(blocked(run)).toBe(true);
    const reason = reasonOf(run);
    for (const axis of faults) expect(reason).toContain(`"${axis}"`);
    expect(reason.match(/"[^"]+" \(/g)?.length).toBe(faults.length);
  });
});

type ReminderCase = [label: string, payload: unknown, options: { tool?: string; override?: string }, expect: "block" | "pass"];

const REMINDER_CASES: ReminderCase[] = [
  ["Claude Stop blocks with the reminder", { hook_event_name: "Stop", stop_hook_active: false }, {}, "block"],
  ["stop_hook_active true passes", { hook_event_name: "Stop", stop_hook_active: true }, {}, "pass"],
  ["stop_hook_active as the string true passes", { hook_event_name: "Stop", stop_hook_active: "true" }, {}, "pass"],
  ["SubagentStop blocks too", { hook_event_name: "SubagentStop", stop_hook_active: false }, {}, "block"],
  ["Codex Stop", { hook_event_name: "Stop", turn_id: "t1", stop_hook_active: false }, { tool: "codex" }, "block"],
  ["Codex Stop in a loop passes", { hook_event_name: "Stop", turn_id: "t1", stop_hook_active: true }, { tool: "codex" }, "pass"],
  ["Copilot Stop", { hookEventName: "Stop", sessionId: "s", timestamp: "2026-01-01T00:00:00Z", stop_hook_active: false }, {}, "block"],
  ["Copilot Stop in a loop passes", { hookEventName: "Stop", sessionId: "s", timestamp: "2026-01-01T00:00:00Z", stop_hook_active: true }, { tool: "copilot" }, "pass"],
  ["payload without the flag blocks", { hook_event_name: "Stop" }, {}, "block"],
  ["project text replaces the built-in one", { hook_event_name: "Stop" }, { override: "Run `make check` before you stop." }, "block"],
  ["project text also stops looping", { hook_event_name: "Stop", stop_hook_active: true }, { override: "Custom" }, "pass"],
  ["no payload passes", "", {}, "pass"],
  ["malformed payload passes", "{oops", {}, "pass"],
  ["array payload passes", "[]", {}, "pass"],
  ["OpenCode shim reply", { hook_event_name: "Stop" }, { tool: "opencode" }, "block"],
];

function reminderDescribe(guard: string, builtIn: string) {
  describe(`guard:${guard}`, () => {
    test.each(REMINDER_CASES)("%s", (_label, payload, options, expected) => {
      const dir = options.override ? tempProject({ [`.aioson/hooks/${guard}.md`]: `${options.override}\n` }) : tempDir();
      const run = runGuard(guard, payload, { dir, args: options.tool ? [`--tool=${options.tool}`] : [] });
      expect(run.code).toBe(0);
      if (expected === "pass") {
        expect(run.stdout).toBe("");
        return;
      }
      const text = options.override ?? builtIn;
      if (options.tool === "opencode") {
        expect(Object.keys(run.output ?? {}).sort()).toEqual(["block", "reason"]);
        expect(run.output?.block).toBe(true);
      } else expect(run.output?.decision).toBe("block");
      expect(reasonOf(run)).toContain(text);
      if (options.tool === "codex") expect(Object.keys(run.output ?? {}).sort()).toEqual(["decision", "reason"]);
      if ((payload as Record<string, unknown>).hookEventName) {
        // Copilot (VS Code): the nested Stop form of its reference, plus the top-level pair.
        const nested = run.output?.hookSpecificOutput as Record<string, unknown>;
        expect(nested.hookEventName).toBe("Stop");
        expect(nested.decision).toBe("block");
        expect(String(nested.reason)).toContain(text);
      }
    });
  });
}

reminderDescribe("stop-checklist", "1) Did you run tests? 2) Did you produce a task map");
reminderDescribe("output-format", "Research Summary (researcher) or Validation Report (validator)");
reminderDescribe("skill-feedback", "Feedback Protocol");

describe("reminder scoping", () => {
  test("kit.json `agents` limits a guard to those agents; `enabled:false` turns it off", () => {
    const dir = tempProject({ ".aioson/hooks/kit.json": JSON.stringify({ "stop-checklist": { agents: ["dev"] }, "output-format": { enabled: false } }) });
    expect(runGuard("stop-checklist", { hook_event_name: "Stop" }, { dir, args: ["--agent=dev"] }).output?.decision).toBe("block");
    expect(runGuard("stop-checklist", { hook_event_name: "Stop" }, { dir, args: ["--agent=qa"] }).stdout).toBe("");
    expect(runGuard("stop-checklist", { hook_event_name: "Stop", agent_type: "dev" }, { dir }).output?.decision).toBe("block");
    expect(runGuard("output-format", { hook_event_name: "Stop" }, { dir }).stdout).toBe("");
  });
});
