import { describe, expect, test } from "bun:test";
import { claudeHandlers } from "../../src/install/claude.ts";
import { codexHandlers } from "../../src/install/codex.ts";
import { agentOfCommand, isOurCommand } from "../../src/install/commands.ts";
import { editJsonText } from "../../src/install/json-edit.ts";
import { mergeInstall, mergeUninstall } from "../../src/install/merge.ts";

const specs = claudeHandlers({ agent: "dev", guardAgent: "auto", guard: true });

const parseText = (text: string) => JSON.parse(text.replace(/^\uFEFF/, ""));

function roundTrip(original: string): { installed: string; restored: string } {
  const before = parseText(original);
  const after = mergeInstall(before, specs);
  const installed = editJsonText(original, before, after);
  const parsed = parseText(installed);
  const restored = editJsonText(installed, parsed, mergeUninstall(parsed));
  return { installed, restored };
}

describe("minimal-edit JSON", () => {
  const originals = [
    '{}\n',
    '{"model":"opus"}',
    '{\n  "model": "opus",\n  "env": { "A": "1" }\n}\n',
    '{\n    "hooks": {\n        "Stop": [\n            { "hooks": [ { "type": "command", "command": "say hi" } ] }\n        ]\n    },\n    "theme": "dark"\n}\n',
    '{\r\n\t"permissions": {"allow": ["Bash(ls)"]},\r\n\t"hooks": {"PostToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "x"}]}]}\r\n}\r\n',
    '  {  "a" : [1,2,3] , "b":null }  \n',
    '\uFEFF{\n  "model": "opus"\n}\n',
  ];
  for (const original of originals) {
    test(`install + uninstall restores ${JSON.stringify(original).slice(0, 40)}`, () => {
      const { installed, restored } = roundTrip(original);
      expect(parseText(installed).hooks.SessionStart).toBeDefined();
      expect(restored).toBe(original === "{}\n" ? "{}\n" : original);
    });
  }

  test("new content uses the file's own indentation and line endings", () => {
    const { installed } = roundTrip('{\r\n\t"model": "opus"\r\n}\r\n');
    expect(installed).toContain('\r\n\t"hooks": {\r\n\t\t"PreToolUse": [');
    expect(installed.replaceAll("\r\n", "")).not.toContain("\n");
  });

  test("a file without prior text is JSON.stringify(…, null, 2) plus a newline", () => {
    expect(editJsonText(null, {}, { a: 1 })).toBe('{\n  "a": 1\n}\n');
  });
});

describe("merge", () => {
  test("an event whose value is not an array is left untouched, never replaced", () => {
    const merged = mergeInstall({ hooks: { Stop: "odd", PostToolUse: [] } }, specs);
    expect((merged.hooks as Record<string, unknown>).Stop).toBe("odd");
    expect(((merged.hooks as Record<string, unknown[]>).PostToolUse ?? []).length).toBe(3);
    expect(mergeUninstall(merged)).toEqual({ hooks: { Stop: "odd" } });
  });
});

describe("reinstall keeps our groups at their places (issue 13: Codex keys trust by position)", () => {
  const codex = (agent: string) => codexHandlers({ agent, guardAgent: "auto", guard: false });
  const user = { matcher: "Bash", hooks: [{ type: "command", command: "my-linter --changed" }] };
  const before = { matcher: "*", hooks: [{ type: "command", command: "audit-log" }] };
  type Hooks = Record<string, unknown[]>;
  const hooksOf = (value: Record<string, unknown>) => value.hooks as Hooks;

  test("a user group after ours: an identical install is a no-op, a changed one replaces ours in place", () => {
    const installed = mergeInstall({}, codex("dev"));
    const withUser = { hooks: { ...hooksOf(installed), PostToolUse: [before, ...(hooksOf(installed).PostToolUse ?? []), user] } };
    expect(mergeInstall(withUser, codex("dev"))).toEqual(withUser);
    const qa = hooksOf(mergeInstall(withUser, codex("qa")));
    expect(qa.PostToolUse).toHaveLength(3);
    expect(qa.PostToolUse?.[0]).toEqual(before);
    expect(JSON.stringify(qa.PostToolUse?.[1])).toContain("--agent='qa'");
    expect(qa.PostToolUse?.[2]).toEqual(user);
    expect(Object.keys(qa)).toEqual(Object.keys(hooksOf(installed)));
  });

  test("text: only our group's bytes change; the user's groups keep theirs, uninstall gives the original back", () => {
    const original = `${JSON.stringify({ hooks: { PostToolUse: [before, user] } }, null, 4)}\n`;
    const first = editJsonText(original, JSON.parse(original), mergeInstall(JSON.parse(original), codex("dev")));
    // The user now puts a group after ours; every reinstall after that keeps the three where they are.
    const parsed = JSON.parse(first) as { hooks: Hooks };
    parsed.hooks.PostToolUse = [...(parsed.hooks.PostToolUse ?? []), { matcher: "apply_patch", hooks: [{ type: "command", command: "notify   --quiet" }] }];
    const edited = `${JSON.stringify(parsed, null, 4)}\n`.replace('"notify   --quiet"', '"notify   --quiet"   ');
    const again = editJsonText(edited, JSON.parse(edited), mergeInstall(JSON.parse(edited), codex("qa")));
    const userBytes = (text: string) => text.slice(text.indexOf('"matcher": "apply_patch",'), text.indexOf('"UserPromptSubmit"'));
    expect(userBytes(again)).toBe(userBytes(edited));
    expect(again.slice(0, again.indexOf('"matcher": "apply_patch|Bash|update_plan"'))).toBe(edited.slice(0, edited.indexOf('"matcher": "apply_patch|Bash|update_plan"')));
    const groups = (JSON.parse(again) as { hooks: Hooks }).hooks.PostToolUse ?? [];
    expect(groups.map((group) => (group as { matcher?: string }).matcher)).toEqual(["*", "Bash", "apply_patch|Bash|update_plan", "apply_patch"]);
    const restored = editJsonText(again, JSON.parse(again), mergeUninstall(JSON.parse(again)));
    expect(JSON.parse(restored)).toEqual({ hooks: { PostToolUse: [before, user, { matcher: "apply_patch", hooks: [{ type: "command", command: "notify   --quiet" }] }] } });
  });

  test("places ours held and no longer needs are removed; entries with no place are appended", () => {
    const installed = mergeInstall({}, [...codex("dev"), { event: "Stop", timeout: 5, command: "aioson guard:stop-checklist \"$PWD\" --tool=codex 2>/dev/null || true" }]);
    const stops = hooksOf(installed).Stop ?? [];
    expect(stops).toHaveLength(2);
    const withUser = { hooks: { ...hooksOf(installed), Stop: [stops[0], user, stops[1]] } };
    expect(hooksOf(mergeInstall(withUser, codex("dev"))).Stop).toEqual([stops[0], user]);
    const back = hooksOf(mergeInstall({ hooks: { Stop: [user] } }, codex("dev"))).Stop;
    expect(back).toEqual([user, stops[0]]);
  });

  test("our handler inside a user's group is still stripped out of it (spec 9.9), our group goes after", () => {
    const ours = (hooksOf(mergeInstall({}, codex("dev"))).Stop?.[0] as { hooks: unknown[] }).hooks[0];
    const mixed = { hooks: [ours, { type: "command", command: "say done" }] };
    expect(hooksOf(mergeInstall({ hooks: { Stop: [mixed] } }, codex("dev"))).Stop).toEqual([{ hooks: [{ type: "command", command: "say done" }] }, { hooks: [ours] }]);
  });
});

describe("ownership", () => {
  test("only commands that start with aioson <our subcommand> are ours", () => {
    expect(isOurCommand("  aioson hooks:emit . --agent=dev")).toBe(true);
    expect(isOurCommand("aioson hooks:recap")).toBe(true);
    expect(isOurCommand("aioson guard:verify-claims --json")).toBe(true);
    expect(isOurCommand("npx aioson hooks:emit .")).toBe(false);
    expect(isOurCommand("my-tool && aioson hooks:emit .")).toBe(false);
    expect(isOurCommand("aioson hooks:emitter")).toBe(false);
  });

  test("the agent of a command is read quoted or bare", () => {
    expect(agentOfCommand("aioson hooks:emit \"$PWD\" --agent='qa' --source='claude'")).toBe("qa");
    expect(agentOfCommand("aioson hooks:emit . --agent=dev --source=codex 2>nul & exit /b 0")).toBe("dev");
    expect(agentOfCommand("aioson hooks:emit .")).toBeNull();
  });
});
