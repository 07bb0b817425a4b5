import { describe, expect, test } from "bun:test";
import { claudeHandlers } from "../../src/install/claude.ts";
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
