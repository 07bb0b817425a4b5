import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { closeStore, openStore } from "../../src/store/db.ts";
import { appendRunEvent, startRun, startTask } from "../../src/store/records.ts";
import { cleanupTemp, rows, tempDir, tempProject } from "../helpers.ts";
import { contextOf, runGuard, writeFiles } from "./helpers.ts";

afterAll(cleanupTemp);

// ---------------------------------------------------------------- subagent-audit

const LINE = /^\[\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}\] Subagent started: (.*)$/m;

type AuditCase = [label: string, payload: unknown, name: string | null, args: string[]];

const AUDIT: AuditCase[] = [
  ["Claude agent_type", { hook_event_name: "SubagentStart", agent_id: "a1", agent_type: "researcher" }, "researcher", []],
  ["seed agentName", { hookEventName: "SubagentStart", agentName: "validator", sessionId: "s", timestamp: "t" }, "validator", []],
  ["Codex agent_type", { hook_event_name: "SubagentStart", turn_id: "t", agent_type: "explorer" }, "explorer", ["--tool=codex"]],
  ["VS Code custom agent", { hookEventName: "SubagentStart", agent_id: "subagent-456", agent_type: "Plan" }, "Plan", ["--tool=copilot"]],
  ["only an id", { hook_event_name: "SubagentStart", agent_id: "agent-77" }, "agent-77", []],
  ["no name at all", { hook_event_name: "SubagentStart" }, "unknown", []],
  ["control characters become spaces", { hook_event_name: "SubagentStart", agent_type: "bad\nname\tx" }, "bad name x", []],
  ["a very long name is capped", { hook_event_name: "SubagentStart", agent_type: "n".repeat(500) }, "n".repeat(200), []],
  ["Copilot camelCase agentType", { hookEventName: "SubagentStart", agentType: "Explore", sessionId: "s", timestamp: "t" }, "Explore", []],
  ["Task subagent_type", { hook_event_name: "SubagentStart", subagent_type: "general-purpose" }, "general-purpose", []],
  ["surrounding spaces trimmed", { hook_event_name: "SubagentStart", agent_type: "  planner  " }, "planner", []],
  ["no payload still answers {}", "", null, []],
  ["malformed payload still answers {}", "{x", null, []],
];

describe("guard:subagent-audit", () => {
  test.each(AUDIT)("%s", (_label, payload, name, args) => {
    const run = runGuard("subagent-audit", payload, { args });
    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toBe("{}");
    const line = LINE.exec(run.stderr);
    if (name === null) expect(line).toBeNull();
    else expect(line?.[1]).toBe(name);
  });

  test("inside a project the start is a store row; outside nothing is created", () => {
    const project = tempProject();
    runGuard("subagent-audit", { hook_event_name: "SubagentStart", session_id: "sess-9", agent_type: "qa" }, { dir: project });
    runGuard("subagent-audit", { hook_event_name: "SubagentStart", session_id: "sess-9", agent_type: "dev" }, { dir: project });
    const stored = rows<{ event_type: string; message: string; source: string; harness_session_id: string; agent_name: string }>(project, "SELECT event_type, message, source, harness_session_id, agent_name FROM execution_events ORDER BY id");
    expect(stored.map((row) => row.agent_name)).toEqual(["qa", "dev"]);
    expect(stored[0]).toMatchObject({ event_type: "subagent_started", source: "guard", harness_session_id: "sess-9" });
    expect(stored[0]?.message).toMatch(LINE);
    const outside = tempDir();
    runGuard("subagent-audit", { hook_event_name: "SubagentStart", agent_type: "qa" }, { dir: outside });
    expect(existsSync(join(outside, ".aioson"))).toBe(false);
  });

  test("a broken store never blocks: {} and a hooks.log line", () => {
    const project = tempProject({ ".aioson/runtime/aios.sqlite": "this is not a database".repeat(100) });
    const run = runGuard("subagent-audit", { hook_event_name: "SubagentStart", agent_type: "qa" }, { dir: project });
    expect(run.code).toBe(0);
    expect(run.stdout.trim()).toBe("{}");
    expect(readFileSync(join(project, ".aioson", "runtime", "hooks.log"), "utf8")).toContain("guard:subagent-audit");
  });

  test("kit.json enabled:false silences the guard (still {})", () => {
    const project = tempProject({ ".aioson/hooks/kit.json": JSON.stringify({ "subagent-audit": { enabled: false } }) });
    const run = runGuard("subagent-audit", { hook_event_name: "SubagentStart", agent_type: "qa" }, { dir: project });
    expect(run.stdout.trim()).toBe("{}");
    expect(run.stderr).toBe("");
  });
});

// ---------------------------------------------------------------- lesson-injector

function lesson(id: string, tags: string, confidence: number, summary: string): string {
  return `---\nid: ${id}\ntags: ${tags}\nconfidence: ${confidence}\n---\n# ${id}\n\n## Resumo\n${summary}\n\n## Detalhes\nlong story\n`;
}

const LESSONS: Record<string, string> = {
  ".aioson/lessons/L001-fix-tests.md": lesson("L001", "[fix, test]", 0.9, "Run the failing test alone first."),
  ".aioson/lessons/L002-create.md": lesson("L002", "[create, ui]", 0.5, "Scaffold from the template."),
  ".aioson/lessons/L003-hooks.md": lesson("L003", "[modify, hooks]", 0.8, "Rebuild the binary after editing a hook."),
  ".aioson/lessons/L004-docs.md": lesson("L004", "[docs]", 0.3, "Docs live in docs/."),
  ".aioson/lessons/L005-long.md": lesson("L005", "[fix]", 0.7, "x".repeat(900)),
  ".aioson/lessons/L006-fix.md": lesson("L006", "[fix]", 0.2, "Lowest fix lesson."),
  ".aioson/lessons/L007-fix.md": lesson("L007", "[fix]", 0.6, "Check the logs."),
  ".aioson/lessons/L008-fix.md": `---\nid: L008\ntags:\n  - fix\n  - database\nconfidence: 0.65\n---\nFirst paragraph summary of L008.\n\nMore.\n`,
  ".aioson/lessons/L009-custom.md": lesson("L009", "[billing-engine]", 0.4, "Billing engine quirks."),
  ".aioson/lessons/notes.md": lesson("N1", "[fix]", 1, "Not a lesson file."),
};

function ids(text: string): string[] {
  return [...text.matchAll(/^- \[(L\d+)\]/gm)].map((m) => m[1] as string);
}

type LessonCase = [label: string, prompt: string, expected: string[]];

const LESSON_CASES: LessonCase[] = [
  ["pt-BR fix → top 5 fix lessons by confidence", "corrigir o bug do login", ["L001", "L005", "L008", "L007", "L006"]],
  ["en fix + test", "fix the failing test please", ["L001", "L005", "L008", "L007", "L006"]],
  ["pt-BR create + ui", "criar uma nova tela de cadastro", ["L002"]],
  ["seed example: editar o hook", "editar o hook de pre-commit", ["L003"]],
  ["no keyword → nothing", "hello there, how are you", []],
  ["modify + docs", "update the README documentation", ["L003", "L004"]],
  ["en create", "add a new endpoint", ["L002"]],
  ["a lesson tag written in the prompt", "why is the billing-engine slow to start", ["L009"]],
  ["database keyword reaches a list-form frontmatter", "migração do banco", ["L008"]],
  ["accents and case", "CORRIGIR Erro", ["L001", "L005", "L008", "L007", "L006"]],
  ["fix + docs: the top 5 across both tags", "fix the docs", ["L001", "L005", "L008", "L007", "L004"]],
  ["a keyword with no lesson → nothing", "refatorar o módulo de pagamentos", []],
  ["hyphenated keyword", "the precommit hook is slow", ["L003"]],
];

describe("guard:lesson-injector", () => {
  const project = tempProject(LESSONS);

  test.each(LESSON_CASES)("%s", (_label, prompt, expected) => {
    const run = runGuard("lesson-injector", { hook_event_name: "UserPromptSubmit", prompt }, { dir: project });
    expect(run.code).toBe(0);
    if (expected.length === 0) {
      expect(run.stdout).toBe("");
      return;
    }
    const text = contextOf(run);
    expect(ids(text)).toEqual(expected);
    expect(text).toContain("(tags: ");
    expect(text).not.toContain("[N1]");
  });

  test("summaries are capped at 500 characters, from ## Resumo or the first paragraph", () => {
    const text = contextOf(runGuard("lesson-injector", { hook_event_name: "UserPromptSubmit", prompt: "fix it" }, { dir: project }));
    const long = text.split("\n").find((line) => line.startsWith("- [L005]")) ?? "";
    const summary = long.slice("- [L005] ".length, long.indexOf(" (confidence:"));
    expect(summary.length).toBeLessThanOrEqual(500);
    expect(text).toContain("First paragraph summary of L008.");
    expect(text).toContain("(confidence: 0.9)");
  });

  test("Codex and Copilot payloads (chatMessage fallback) get the same context", () => {
    const codexRun = runGuard("lesson-injector", { hook_event_name: "UserPromptSubmit", turn_id: "t", prompt: "editar hook" }, { dir: project, args: ["--tool=codex"] });
    expect(codexRun.output).toEqual({ hookSpecificOutput: { hookEventName: "UserPromptSubmit", additionalContext: expect.stringContaining("[L003]") } });
    const copilotRun = runGuard("lesson-injector", { hookEventName: "UserPromptSubmit", sessionId: "s", timestamp: "t", chatMessage: "editar hook" }, { dir: project });
    expect(ids(contextOf(copilotRun))).toEqual(["L003"]);
  });

  test("kit.json dirs: a project folder and a ~ folder replace the default", () => {
    const home = tempDir("aioson-home-");
    writeFiles(home, { "lessons/L100-home.md": lesson("L100", "[fix]", 0.99, "From home.") });
    const custom = tempProject({ "kb/L200-kb.md": lesson("L200", "[fix]", 0.5, "From kb."), ".aioson/hooks/kit.json": JSON.stringify({ "lesson-injector": { dirs: ["kb", "~/lessons"], limit: 1 } }) });
    const run = runGuard("lesson-injector", { hook_event_name: "UserPromptSubmit", prompt: "fix" }, { dir: custom, env: { HOME: home, USERPROFILE: home } });
    expect(ids(contextOf(run))).toEqual(["L100"]);
  });

  test("no lessons folder, or no project, → nothing", () => {
    expect(runGuard("lesson-injector", { hook_event_name: "UserPromptSubmit", prompt: "fix the bug" }, { dir: tempProject() }).stdout).toBe("");
    expect(runGuard("lesson-injector", { hook_event_name: "UserPromptSubmit", prompt: "fix the bug" }, { dir: tempDir() }).stdout).toBe("");
  });
});

// ---------------------------------------------------------------- session-context

function git(dir: string, ...args: string[]): void {
  const run = Bun.spawnSync(["git", "-C", dir, "-c", "user.email=t@t", "-c", "user.name=t", "-c", "commit.gpgsign=false", ...args], { stdout: "ignore", stderr: "pipe" });
  if (run.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${run.stderr.toString()}`);
}

function repo(files: Record<string, string>, commits: string[] = ["feat: init"], branch = "main"): string {
  const dir = tempDir("aioson-git-");
  git(dir, "init", "-q", "-b", branch);
  writeFiles(dir, files);
  commits.forEach((subject, index) => {
    writeFileSync(join(dir, `c${index}.txt`), subject);
    git(dir, "add", "-A");
    git(dir, "commit", "-q", "-m", subject);
  });
  return dir;
}

type SessionCase = [label: string, make: () => string, expected: Array<string | RegExp> | null, args: string[]];

const SESSION: SessionCase[] = [
  ["outside git: nothing", () => tempDir(), null, []],
  ["package.json name@version", () => repo({ "package.json": '{"name":"app","version":"1.2.0"}' }), ["Project: app@1.2.0"], []],
  ["branch", () => repo({}, ["feat: a"], "feat/auth"), ["Branch: feat/auth"], []],
  ["HEAD short sha and subject", () => repo({}, ["feat: a", "fix: b"]), [/HEAD: [0-9a-f]{7,} fix: b/], []],
  ["uncommitted files counted", () => { const d = repo({}); writeFiles(d, { "x.txt": "1", "y.txt": "2" }); return d; }, ["Uncommitted changes: 2 files"], []],
  ["clean tree", () => repo({}), ["Uncommitted changes: 0 files"], []],
  ["one file", () => { const d = repo({}); writeFiles(d, { "x.txt": "1" }); return d; }, ["Uncommitted changes: 1 file"], []],
  ["recent commits", () => repo({}, ["feat: one", "fix: two", "docs: three"]), ["Recent commits:", /- [0-9a-f]+ fix: two/, /- [0-9a-f]+ feat: one/], []],
  ["pyproject.toml", () => repo({ "pyproject.toml": '[project]\nname = "pyapp"\nversion = "0.3.1"\n' }), ["Project: pyapp@0.3.1"], []],
  ["Cargo.toml", () => repo({ "Cargo.toml": '[package]\nname = "rsapp"\nversion = "2.0.0"\n' }), ["Project: rsapp@2.0.0"], []],
  ["no manifest: folder name", () => repo({}), [/Project: aioson-git-/], []],
  ["empty repository", () => { const d = tempDir("aioson-git-"); git(d, "init", "-q", "-b", "trunk"); return d; }, ["Branch: trunk", "HEAD: (no commits)"], []],
  ["detached HEAD", () => { const d = repo({}, ["feat: a", "feat: b"]); git(d, "checkout", "-q", "HEAD~1"); return d; }, ["Branch: (detached HEAD)"], []],
  ["from a subdirectory: the manifest of the work tree", () => { const d = repo({ "package.json": '{"name":"mono","version":"9.9.9"}', "pkg/a/readme.txt": "x" }); return join(d, "pkg", "a"); }, ["Project: mono@9.9.9"], []],
  ["Codex dialect", () => repo({}), ["Branch: main"], ["--tool=codex"]],
  ["Copilot dialect", () => repo({}), ["Branch: main"], ["--tool=copilot"]],
];

describe("guard:session-context", () => {
  test.each(SESSION)("%s", (_label, make, expected, args) => {
    const dir = make();
    const run = runGuard("session-context", { hook_event_name: "SessionStart", source: "startup" }, { dir, args });
    expect(run.code).toBe(0);
    if (expected === null) {
      expect(run.stdout).toBe("");
      return;
    }
    // Copilot CLI reads only a top-level additionalContext at sessionStart, VS Code the nested one: both, same text.
    const copilot = args.includes("--tool=copilot");
    expect(Object.keys(run.output ?? {})).toEqual(copilot ? ["additionalContext", "hookSpecificOutput"] : ["hookSpecificOutput"]);
    if (copilot) expect((run.output as { additionalContext?: string }).additionalContext).toBe(contextOf(run));
    const text = contextOf(run);
    for (const part of expected) {
      if (typeof part === "string") expect(text).toContain(part);
      else expect(text).toMatch(part);
    }
    expect(text.length).toBeLessThanOrEqual(800);
  });

  test("never more than 800 characters", () => {
    const dir = repo({ "package.json": JSON.stringify({ name: "n".repeat(300), version: "1.0.0" }) }, Array.from({ length: 6 }, (_, i) => `feat: ${"long subject ".repeat(30)}${i}`), `feat/${"b".repeat(200)}`);
    const text = contextOf(runGuard("session-context", { hook_event_name: "SessionStart" }, { dir }));
    expect(text.length).toBeGreaterThan(0);
    expect(text.length).toBeLessThanOrEqual(800);
  });
});

// ---------------------------------------------------------------- context-save

type Row = { type: string; message: string; payload?: Record<string, unknown>; session?: string };

function storeWith(project: string, events: Row[]): void {
  const store = openStore(project);
  if (!store) throw new Error("no store");
  try {
    const taskKey = startTask(store.db, { title: "[hooks] dev via claude", sessionKey: "hooks-dev-1", taskKind: "live_session" });
    const { runKey } = startRun(store.db, { taskKey, agentName: "@dev", sessionKey: "hooks-dev-1", source: "live", title: "t", firstEvent: { eventType: "session_started", phase: "live" } });
    for (const event of events) {
      appendRunEvent(store.db, runKey, { eventType: event.type, message: event.message, phase: "live", payload: { written_by: "hooks:emit", ...event.payload }, harnessSessionId: event.session ?? "s1" });
    }
  } finally {
    closeStore(store);
  }
}

const EVENTS: Row[] = [
  { type: "artifact", message: "Write: src/cart.ts", payload: { tool: "Write", file: "src/cart.ts" } },
  { type: "artifact", message: "Edit: src/cart.ts", payload: { tool: "Edit", file: "src/cart.ts" } },
  { type: "artifact", message: "Edit: src/api/routes.ts", payload: { tool: "Edit", file: "src/api/routes.ts" } },
  { type: "step_done", message: "$ npm test", payload: { tool: "Bash", command: "npm test", outcome: "failed" } },
  { type: "step_done", message: "$ npm test", payload: { tool: "Bash", command: "npm test -- cart", outcome: "passed" } },
  { type: "note", message: "Task list updated", payload: { tool: "TodoWrite", todos: [{ content: "write cart tests", status: "completed" }, { content: "wire checkout", status: "in_progress" }, { content: "update docs", status: "pending" }] } },
  { type: "agent_message", message: "Done", payload: { text: "Decision: keep prices in cents.\nTODO: handle coupons\nAll good." } },
  { type: "decision", message: "Use SQLite for the cart store", payload: {} },
  { type: "artifact", message: "Edit: other.ts", payload: { file: "src/other-session.ts" }, session: "s2" },
];

function save(project: string, payload: Record<string, unknown> = {}, args: string[] = []) {
  return runGuard("context-save", { hook_event_name: "PreCompact", trigger: "auto", session_id: "s1", ...payload }, { dir: project, args });
}

function snapshotOf(project: string, name = "session-s1-snapshot.md", dir = join("docs", "maps")): string {
  return readFileSync(join(project, dir, name), "utf8");
}

describe("guard:context-save", () => {
  const project = tempProject();
  storeWith(project, EVENTS);
  const first = save(project);
  const text = snapshotOf(project);

  test("answers with the snapshot path (systemMessage: PreCompact takes no additionalContext)", () => {
    expect(first.code).toBe(0);
    expect(first.output).toEqual({ systemMessage: "Session context snapshot saved to docs/maps/session-s1-snapshot.md. If detail was lost during compaction, read this file to recover state." });
  });
  test("files edited, de-duplicated", () => {
    expect(text).toContain("## Files edited (2)");
    expect(text.match(/`src\/cart\.ts`/g)?.length).toBe(1);
    expect(text).toContain("`src/api/routes.ts`");
  });
  test("commands with their outcome", () => {
    expect(text).toContain("- `npm test` — failed");
    expect(text).toContain("- `npm test -- cart` — passed");
  });
  test("open TODOs from the last plan, completed ones dropped, TODO lines of messages added", () => {
    expect(text).toContain("- [ ] wire checkout (in progress)");
    expect(text).toContain("- [ ] update docs");
    expect(text).not.toContain("write cart tests");
    expect(text).toContain("TODO: handle coupons");
  });
  test("decisions from decision events and Decision: lines", () => {
    expect(text).toContain("- Use SQLite for the cart store");
    expect(text).toContain("- Decision: keep prices in cents.");
  });
  test("another harness session's rows stay out", () => {
    expect(text).not.toContain("other-session");
  });
  test("the last agent message is quoted", () => {
    expect(text).toContain("## Last agent message");
    expect(text).toContain("All good.");
  });

  type SaveCase = [label: string, make: () => { project: string; payload?: Record<string, unknown>; args?: string[] }, check: (project: string, run: ReturnType<typeof save>) => void];
  const CASES: SaveCase[] = [
    ["outside a project: nothing", () => ({ project: tempDir() }), (dir, run) => { expect(run.stdout).toBe(""); expect(existsSync(join(dir, "docs"))).toBe(false); }],
    ["a project without a store: nothing, no store created", () => ({ project: tempProject() }), (dir, run) => { expect(run.stdout).toBe(""); expect(existsSync(join(dir, ".aioson", "runtime", "aios.sqlite"))).toBe(false); }],
    ["unknown harness session: the latest run", () => { const p = tempProject(); storeWith(p, EVENTS.slice(0, 1)); return { project: p, payload: { session_id: "zzz" } }; }, (dir) => expect(snapshotOf(dir, "session-zzz-snapshot.md")).toContain("`src/cart.ts`")],
    ["kit.json dir", () => { const p = tempProject({ ".aioson/hooks/kit.json": JSON.stringify({ "context-save": { dir: "notes/snapshots" } }) }); storeWith(p, EVENTS); return { project: p }; }, (dir, run) => { expect(contextOf(run)).toContain("notes/snapshots/session-s1-snapshot.md"); expect(snapshotOf(dir, "session-s1-snapshot.md", join("notes", "snapshots"))).toContain("src/cart.ts"); }],
    ["a dir outside the project falls back and is logged", () => { const p = tempProject({ ".aioson/hooks/kit.json": JSON.stringify({ "context-save": { dir: "../outside" } }) }); storeWith(p, EVENTS); return { project: p }; }, (dir, run) => { expect(contextOf(run)).toContain("docs/maps/"); expect(readFileSync(join(dir, ".aioson", "runtime", "hooks.log"), "utf8")).toContain("leaves the project"); }],
    ["secrets are redacted", () => { const p = tempProject(); storeWith(p, [{ type: "step_done", message: "$ curl", payload: { command: "curl -H 'Authorization: Bearer abcdefghijklmnop1234' https://x", outcome: "passed" } }]); return { project: p }; }, (dir) => { const t = snapshotOf(dir); expect(t).toContain("[REDACTED]"); expect(t).not.toContain("abcdefghijklmnop1234"); }],
    ["Codex dialect: only systemMessage", () => { const p = tempProject(); storeWith(p, EVENTS); return { project: p, args: ["--tool=codex"] }; }, (_d, run) => expect(Object.keys(run.output ?? {})).toEqual(["systemMessage"])],
    ["Copilot dialect: only systemMessage", () => { const p = tempProject(); storeWith(p, EVENTS); return { project: p, payload: { hookEventName: "PreCompact" }, args: ["--tool=copilot"] }; }, (_d, run) => expect(Object.keys(run.output ?? {})).toEqual(["systemMessage"])],
    ["OpenCode: context for the compaction prompt", () => { const p = tempProject(); storeWith(p, EVENTS); return { project: p, args: ["--tool=opencode"] }; }, (_d, run) => expect(String(run.output?.context)).toContain("docs/maps/session-s1-snapshot.md")],
    ["a second compaction rewrites the same file", () => { const p = tempProject(); storeWith(p, EVENTS.slice(0, 1)); save(p); storeWith(p, EVENTS.slice(2, 3)); return { project: p }; }, (dir) => expect(snapshotOf(dir)).toContain("src/api/routes.ts")],
    ["an odd session id becomes a safe file name", () => { const p = tempProject(); storeWith(p, [{ ...EVENTS[0]!, session: "../../Weird ID:1" }]); return { project: p, payload: { session_id: "../../Weird ID:1" } }; }, (dir) => expect(existsSync(join(dir, "docs", "maps", "session-weird-id-1-snapshot.md"))).toBe(true)],
    ["a corrupt store never blocks", () => ({ project: tempProject({ ".aioson/runtime/aios.sqlite": "garbage".repeat(200) }) }), (dir, run) => { expect(run.code).toBe(0); expect(run.stdout).toBe(""); expect(readFileSync(join(dir, ".aioson", "runtime", "hooks.log"), "utf8")).toContain("guard:context-save"); }],
  ];

  test.each(CASES)("%s", (_label, make, check) => {
    const { project: dir, payload, args } = make();
    const run = save(dir, payload, args);
    expect(run.code).toBe(0);
    check(dir, run);
  });
});
