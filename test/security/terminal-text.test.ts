/**
 * Text a hostile project recorded never reaches a person's terminal raw: escape sequences (`ESC ]`, `ESC [`, the C1
 * CSI and OSC), other C0/C1 controls, bidi controls and line breaks in event summaries, file names, titles, agent
 * messages, rule paths and config keys are shown as visible `\u{…}` escapes (line breaks as spaces) by every
 * human-facing command's text output, and a recorded newline cannot draw a line of its own (src/text/terminal.ts).
 */
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cleanupTemp, runAioson, tempDir, tempProject } from "../helpers.ts";
import { openDbFile } from "../../scripts/open-db.ts";

afterAll(cleanupTemp);

/** Everything that may drive a terminal, except the newline that ends each of aioson's own lines. */
const UNSAFE = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/;
const OSC = "\u001b]0;pwned\u0007";
const CSI = "\u001b[2J\u001b[1;31m";
const C1 = "\u009b2J\u009d8;;http://evil\u009c";
const BIDI = "\u202e\u2066txt.exe\u2069";
/** A recorded newline that would print a forged line under the real ones. */
const FORGED = "\n  ✓ Claude Code — forged\r";
const HOSTILE = `x${OSC}${CSI}${C1}${BIDI}${FORGED}y`;

function hostileProject(): { project: string; home: string } {
  const home = tempDir("aioson-home-");
  const project = tempProject({ [`.aioson/rules/ru${OSC}le.md`]: "---\nname: rule\ndescription: a rule\n---\n- Source files use camelCase names.\n" });
  const emit = (payload: object) => expect(runAioson(["hooks:emit", project, "--agent=dev", "--source=claude"], { home, stdin: JSON.stringify({ session_id: "s-1", cwd: project, ...payload }) }).code).toBe(0);
  emit({ hook_event_name: "PostToolUse", tool_name: "Write", tool_input: { file_path: join(project, `src/${OSC}${BIDI}.ts`), content: "x" } });
  emit({ hook_event_name: "PostToolUse", tool_name: "Bash", tool_input: { command: `npm test ${CSI}`, description: HOSTILE }, tool_response: { exit_code: 1, output_tail: `1 failed ${C1}` } });
  emit({ hook_event_name: "PostToolUse", tool_name: "TodoWrite", tool_input: { todos: [{ content: `step ${HOSTILE}`, status: "pending" }] } });
  emit({ hook_event_name: "Stop", last_assistant_message: `done ${HOSTILE}` });
  expect(runAioson(["runtime:emit", project, "--agent=dev", "--type=note", `--summary=${HOSTILE}`, `--title=${HOSTILE}`], { home }).code).toBe(0);
  // A repository can ship its own store: every text column is the attacker's.
  const db = openDbFile(join(project, ".aioson", "runtime", "aios.sqlite"));
  try {
    db.run("UPDATE tasks SET title = ?, status = 'running'", [HOSTILE]);
    db.run("UPDATE agent_runs SET title = ?, summary = ?", [HOSTILE, HOSTILE]);
    db.run("UPDATE execution_events SET message = ?", [HOSTILE]);
  } finally {
    db.close();
  }
  mkdirSync(join(project, ".github", "hooks"), { recursive: true });
  writeFileSync(join(project, ".github", "hooks", "aioson.json"), JSON.stringify({ version: 1, hooks: { [`Post${CSI}${BIDI}`]: [{ type: "command", command: "aioson hooks:emit . ; true" }] } }));
  return { project, home };
}

describe("recorded text on a terminal", () => {
  test("every human-facing command shows hostile recorded text escaped, one recorded item per line", () => {
    const { project, home } = hostileProject();
    const commands = [
      ["live:status", project],
      ["live:status", project, "--agent=dev"],
      ["live:status", project, "--format=compact"],
      ["live:status", project, "--format=tmux-bar"],
      ["runtime:status", project],
      ["context:usage", project],
      ["context:brief", project, "--agent=dev", `--task=${HOSTILE}`],
      ["hooks:doctor", project, "--tool=copilot"],
      ["hooks:install", project, "--tool=copilot", "--dry-run"],
      ["session:guard", project, "--once"],
      ["update", join(project, `sub${OSC}`)],
      ["live:status", join(project, `nowhere${CSI}`), "--agent=dev"],
    ];
    let escapes = 0;
    for (const args of commands) {
      const run = runAioson(args, { home, cwd: project });
      const output = run.stdout + run.stderr;
      expect({ args, unsafe: UNSAFE.exec(output)?.[0] ?? null }).toEqual({ args, unsafe: null });
      // The forged line never starts a line of its own.
      expect({ args, forged: /^\s*✓ Claude Code — forged/m.test(output) }).toEqual({ args, forged: false });
      escapes += output.split("\\u{1b}").length - 1;
    }
    // The hostile text is shown, escaped, not dropped.
    expect(escapes).toBeGreaterThan(20);
    const status = runAioson(["runtime:status", project], { home }).stdout;
    expect(status).toContain("x\\u{1b}]0;pwned\\u{7}\\u{1b}[2J\\u{1b}[1;31m\\u{9b}2J\\u{9d}8;;http://evil\\u{9c}\\u{202e}\\u{2066}txt.exe\\u{2069}   ✓ Claude Code — forged y");
  });

  test("--json output is safe on a terminal too: what JSON.stringify leaves raw (C1, bidi, U+2028) is \\u-escaped, the value is the same", () => {
    const { project, home } = hostileProject();
    for (const args of [["runtime:status", project, "--json"], ["live:status", project, "--json"], ["context:brief", project, "--agent=dev", `--task=${HOSTILE}`, "--json"]]) {
      const run = runAioson(args, { home });
      expect({ args, unsafe: UNSAFE.exec(run.stdout)?.[0] ?? null }).toEqual({ args, unsafe: null });
      expect(run.stdout).toContain("\\u009b2J\\u009d8;;http://evil\\u009c\\u202e\\u2066txt.exe\\u2069");
    }
    const task = (runAioson(["runtime:status", project, "--json"], { home }).json as { activeTasks: { title: string }[] }).activeTasks[0]?.title;
    expect(task).toBe(HOSTILE);
  });

  test("the tmux status bar doubles #, so recorded text cannot carry tmux's #[style] or #(command)", () => {
    const home = tempDir("aioson-home-");
    const project = tempProject();
    expect(runAioson(["runtime:emit", project, "--agent=dev"], { home }).code).toBe(0);
    const state = join(project, ".aioson", "runtime", "live");
    mkdirSync(join(state, "s"), { recursive: true });
    writeFileSync(join(state, "s", "state.json"), JSON.stringify({ session_key: "s", agent: "@dev", phase: "active #(touch /tmp/x) #[fg=red]", updated_at: new Date().toISOString(), stats: {} }));
    const bar = runAioson(["live:status", project, "--format=tmux-bar"], { home });
    expect(bar.stdout).not.toMatch(/(^|[^#])#[[(]/);
  });
});
