import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { closeStore, openStore } from "../../src/store/db.ts";
import { insertStandaloneEvent } from "../../src/store/records.ts";
import { cleanupTemp, rows, runAioson, tempProject } from "../helpers.ts";
import { edit, fixtureProject, guard, write, writeFiles } from "./fixture.ts";

afterAll(cleanupTemp);

const MIGRATION = "database/migrations/2026_06_18_create_workspace_table.php";
const MIGRATION_TEXT = "<?php\nSchema::create('workspaces', function ($table) { $table->foreignId('project_id'); });\n";

function createStore(project: string): void {
  const store = openStore(project);
  if (store) closeStore(store);
}

function briefRow(project: string, agent: string, minutesAgo: number): void {
  const store = openStore(project);
  if (!store) throw new Error("no store");
  insertStandaloneEvent(store.db, {
    source: "context_brief",
    eventType: "brief_built",
    agentName: agent,
    payload: { agent_name: agent },
    at: new Date(Date.now() - minutesAgo * 60_000).toISOString(),
  });
  closeStore(store);
}

describe("context:guard output modes", () => {
  test("human mode prints exactly one line naming the rules and the confidence", () => {
    const project = fixtureProject();
    const run = runAioson(["context:guard", project, "--no-jev"], { stdin: JSON.stringify(write(join(project, MIGRATION), MIGRATION_TEXT)) });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("context:guard injected 1 rule(s): .aioson/rules/db-naming.md (confidence high)\n");
  });

  test("human mode with nothing pertinent says so in one line", () => {
    const project = fixtureProject();
    const run = runAioson(["context:guard", project], { stdin: JSON.stringify(write(join(project, "src/math/sum.js"), "export const one = 1;\n")) });
    expect(run.stdout).toBe("context:guard: no salient project rule for this change\n");
  });

  test("--event and --event-file carry the event; --event wins", () => {
    const project = fixtureProject();
    const event = JSON.stringify(write(join(project, MIGRATION), MIGRATION_TEXT));
    const file = join(project, "event.json");
    writeFileSync(file, JSON.stringify(write(join(project, "src/math/sum.js"), "export const one = 1;\n")));
    expect(guard(project, null, [`--event=${event}`]).rules).toEqual([".aioson/rules/db-naming.md"]);
    expect(guard(project, null, [`--event-file=${file}`]).json).toEqual({});
    expect(guard(project, null, [`--event=${event}`, `--event-file=${file}`]).rules).toEqual([".aioson/rules/db-naming.md"]);
  });

  test("outside any project the answer is {} and nothing is created", () => {
    const home = tempProject();
    const outside = join(home, "..");
    const run = runAioson(["context:guard", "--json"], { cwd: outside, stdin: JSON.stringify(write(join(outside, MIGRATION), MIGRATION_TEXT)) });
    expect(run.code).toBe(0);
    expect(run.json).toEqual({});
  });

  for (const [name, stdin] of [
    ["garbage", "not json at all {"],
    ["an array", "[1, 2, 3]"],
    ["binary bytes", new Uint8Array([0, 255, 1, 2, 3, 0, 10])],
    ["a wrong-typed tool_input", JSON.stringify({ tool_name: "Write", tool_input: { file_path: 42, content: { a: 1 } } })],
    ["a non-array edits", JSON.stringify({ tool_name: "MultiEdit", tool_input: { file_path: "src/a.js", edits: "oops" } })],
    ["nothing", ""],
  ] as const) {
    test(`a malformed payload (${name}) answers {} and exits 0`, () => {
      const project = fixtureProject();
      const run = runAioson(["context:guard", project, "--json"], { stdin });
      expect(run.code).toBe(0);
      expect(run.json).toEqual({});
    });
  }

  test("an Antigravity write_to_file call is read like a Claude Write", () => {
    const project = fixtureProject();
    const event = { conversationId: "c-1", toolCall: { name: "write_to_file", args: { TargetFile: join(project, MIGRATION), CodeContent: MIGRATION_TEXT } } };
    expect(guard(project, event, ["--tool=antigravity", "--no-jev"]).rules).toEqual([".aioson/rules/db-naming.md"]);
  });
});

describe("context:guard rule files", () => {
  test("a broken rule file is skipped by the guard and reported by context:brief", () => {
    const project = fixtureProject();
    writeFiles(project, {
      ".aioson/rules/broken-yaml.md": "---\ndescription: Broken\nentities:\n  - workspace\n---\n- Never do this.\n",
      ".aioson/rules/broken-guard.md": "---\nentities: [workspace]\nguard: maybe\n---\n- Never do that.\n",
      ".aioson/rules/unclosed.md": "---\nentities: [workspace]\n- Never.\n",
    });
    const run = guard(project, write(join(project, MIGRATION), MIGRATION_TEXT), ["--no-jev"]);
    expect(run.rules).toEqual([".aioson/rules/db-naming.md"]);
    const brief = runAioson(["context:brief", project, "--agent=dev", "--task=workspace", "--json"]);
    expect(brief.code).toBe(0);
    const invalid = (brief.json as { invalid_rules: Array<{ path: string; problem: string }> }).invalid_rules;
    expect(invalid.map((i) => i.path)).toEqual([".aioson/rules/broken-guard.md", ".aioson/rules/broken-yaml.md", ".aioson/rules/unclosed.md"]);
    expect(invalid[0]?.problem).toContain("guard");
    expect(invalid[1]?.problem).toContain("multi-line YAML list");
    const human = runAioson(["context:brief", project, "--agent=dev", "--task=workspace"]);
    expect(human.stdout).toContain("Skipped rule files");
    expect(human.stdout).toContain("- .aioson/rules/unclosed.md: frontmatter opened with `---` but never closed");
  });

  test("a checker document for dev only stays silent for the planner", () => {
    const project = tempProject({
      ".aioson/rules/naming.md": "---\nenforcement: source-code-language\nagents: [dev]\n---\n## Rules\n- Write identifiers in English.\n",
    });
    const event = write(join(project, "src/a.js"), "export function salvarPedido() {}\n");
    expect(guard(project, event, ["--agent=planner"]).json).toEqual({});
    expect(guard(project, event, ["--agent=dev"]).rules).toEqual([".aioson/rules/naming.md"]);
  });

  test("the exact findingKey in the baseline accepts the finding", () => {
    const project = tempProject({
      ".aioson/rules/naming.md": "---\nname: naming-convention\nenforcement: source-code-language\n---\n## Rules\n- Write identifiers in English.\n",
    });
    const event = write(join(project, "src/a.js"), "export function salvarPedido() {}\n");
    expect(guard(project, event).rules).toEqual([".aioson/rules/naming.md"]);
    writeFiles(project, { ".aioson/context/rules-baseline.json": JSON.stringify({ accepted: ["naming-convention|NAMING_LANGUAGE|file:src/a.js|salvarPedido"] }) });
    expect(guard(project, event).json).toEqual({});
  });

  test("more than five findings are summarised and every key is recorded", () => {
    const project = tempProject({ ".aioson/rules/naming.md": "---\nenforcement: source-code-language\n---\n## Rules\n- Write identifiers in English.\n" });
    createStore(project);
    const names = ["salvarPedido", "criarConta", "buscarItem", "listarPedidos", "enviarEmail", "gerarRelatorio", "abrirModal"];
    const run = guard(project, write(join(project, "src/a.js"), names.map((n) => `export function ${n}() {}`).join("\n")));
    expect(run.text).toContain("- … and 2 more\n- Write identifiers in English.");
    const [row] = rows<{ payload_json: string }>(project, "SELECT payload_json FROM execution_events WHERE event_type = 'guard_injected'");
    const payload = JSON.parse(row?.payload_json ?? "{}") as { violations: Array<{ keys: string[] }> };
    expect(payload.violations[0]?.keys).toHaveLength(7);
  });
});

describe("context:guard agent resolution", () => {
  const event = (project: string) => write(join(project, "notes/roadmap.txt"), "Roadmap: milestone plan for Q3\n");

  test("the agent of a brief built 30 minutes ago is used; one 3 hours old is not", () => {
    const project = fixtureProject();
    createStore(project);
    briefRow(project, "planner", 180);
    expect(guard(project, event(project), ["--no-jev"]).json).toEqual({});
    briefRow(project, "planner", 30);
    expect(guard(project, event(project), ["--no-jev"]).rules).toEqual([".aioson/rules/roadmap-planning.md"]);
  });

  test("AIOSON_AGENT beats the latest brief; the event beats both", () => {
    const project = fixtureProject();
    createStore(project);
    briefRow(project, "planner", 5);
    expect(guard(project, event(project), ["--no-jev"], { AIOSON_AGENT: "dev" }).json).toEqual({});
    expect(guard(project, { ...event(project), context: { agent: "planner" } }, ["--no-jev"], { AIOSON_AGENT: "dev" }).rules).toEqual([
      ".aioson/rules/roadmap-planning.md",
    ]);
  });
});

describe("guard_injected record", () => {
  test("written only when the store already exists, with file, rules and violation keys", () => {
    const project = fixtureProject();
    const event = edit(join(project, "src/legacy/clientes.js"), "export function criarCliente(dados) {", "export function salvarPedido() {}\nexport function criarCliente(dados) {", { session_id: "sess-9" });
    expect(guard(project, event).rules).toEqual([".aioson/rules/source-code-language-convention.md"]);
    expect(existsSync(join(project, ".aioson", "runtime"))).toBe(false);
    createStore(project);
    guard(project, event, [], { AIOSON_AGENT: "qa" });
    const recorded = rows<{ source: string; phase: string; agent_name: string; run_key: string | null; harness_session_id: string; message: string; payload_json: string }>(
      project,
      "SELECT * FROM execution_events WHERE event_type = 'guard_injected'",
    );
    expect(recorded).toHaveLength(1);
    const row = recorded[0];
    expect(row?.source).toBe("context_guard");
    expect(row?.phase).toBe("context_guard");
    expect(row?.agent_name).toBe("qa");
    expect(row?.run_key).toBeNull();
    expect(row?.harness_session_id).toBe("sess-9");
    expect(row?.message).toBe("guard injected 1 rule(s) into src/legacy/clientes.js");
    const payload = JSON.parse(row?.payload_json ?? "{}");
    expect(payload).toMatchObject({
      file: "src/legacy/clientes.js",
      tool: "Edit",
      agent: "qa",
      rules: [".aioson/rules/source-code-language-convention.md"],
      violations: [
        {
          rule: ".aioson/rules/source-code-language-convention.md",
          checker: "source-code-language",
          kind: "code",
          keys: ["NAMING_LANGUAGE|salvarPedido|file|src/legacy/clientes.js"],
        },
      ],
      confidence: expect.any(String),
      jev: { status: "nothing_to_judge" },
    });
  });

  test("a violation-only injection records the confidence of the whole brief (the always-loaded project context counts)", () => {
    const project = fixtureProject();
    createStore(project);
    // No rule is routed to this file: only the naming checker speaks.
    const event = write(join(project, "lib/clientes.js"), "export const salvarPedido = 1;\n");
    expect(guard(project, event, ["--no-jev"], { AIOSON_AGENT: "qa" }).rules).toEqual([".aioson/rules/source-code-language-convention.md"]);
    const recorded = rows<{ payload_json: string }>(project, "SELECT payload_json FROM execution_events WHERE event_type = 'guard_injected'");
    expect(recorded.map((row) => JSON.parse(row.payload_json).confidence)).toEqual(["high"]);
  });

  test("a damaged store changes nothing the agent is told", () => {
    const project = fixtureProject();
    writeFiles(project, { ".aioson/runtime/aios.sqlite": "this is not a database" });
    const run = guard(project, write(join(project, MIGRATION), MIGRATION_TEXT), ["--no-jev"]);
    expect(run.code).toBe(0);
    expect(run.rules).toEqual([".aioson/rules/db-naming.md"]);
  });

  test("context:brief records brief_built only into an existing store", () => {
    const project = fixtureProject();
    runAioson(["context:brief", project, "--agent=architect", "--task=workspace migration", "--paths=database/migrations/x.php"]);
    expect(existsSync(join(project, ".aioson", "runtime"))).toBe(false);
    createStore(project);
    const run = runAioson(["context:brief", project, "--agent=@Architect", "--mode=executing", "--task=workspace migration", "--paths=database/migrations/x.php", "--json"]);
    expect(run.code).toBe(0);
    expect((run.json as { must_load: Array<{ path: string }> }).must_load.map((m) => m.path)).toContain(".aioson/rules/db-naming.md");
    const recorded = rows<{ agent_name: string; payload_json: string }>(project, "SELECT agent_name, payload_json FROM execution_events WHERE source = 'context_brief' AND event_type = 'brief_built'");
    expect(recorded).toHaveLength(1);
    expect(recorded[0]?.agent_name).toBe("architect");
    expect(JSON.parse(recorded[0]?.payload_json ?? "{}")).toMatchObject({
      agent_name: "architect",
      task: "workspace migration",
      paths: ["database/migrations/x.php"],
      must_load: expect.arrayContaining([".aioson/rules/db-naming.md"]),
      skills: [],
      generic_task: false,
    });
  });
});
