/**
 * Drives Claude Code offline (real-harnesses.md §0): `claude -p <prompt> --output-format stream-json --verbose
 * --include-hook-events --debug-file <f>` against the scripted server, HOME and CLAUDE_CONFIG_DIR isolated, the
 * vendor's traffic switched off. As root `--dangerously-skip-permissions` refuses to run, so tools are allowed with
 * `--permission-mode acceptEdits --allowedTools`. The debug file is the harness's own proof that a hook ran:
 * `Hooks: <Event>:<query> [<command>] finished with status N (Xms)`.
 */
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { InstalledHarness } from "../install.ts";
import { jsonLines, runTracked, type RunResult } from "../processes.ts";
import { baseEnv, type World } from "../project.ts";
import type { ModelServer } from "../server.ts";

export const DEFAULT_TOOLS = ["Bash", "Write", "Edit", "Read", "TaskCreate", "TaskUpdate", "TaskList", "TodoWrite", "Skill", "Agent", "ToolSearch"];

export type HookRun = { event: string; query: string; command: string; status: number; ms: number };

export type ClaudeRun = {
  result: RunResult;
  /** The stream-json lines Claude printed. */
  lines: Array<Record<string, unknown>>;
  sessionId: string;
  debug: string;
  hooks: HookRun[];
};

export type ClaudeOptions = {
  prompt: string;
  resume?: string;
  env?: Record<string, string>;
  args?: string[];
  tools?: string[];
  timeoutMs?: number;
};

export function claudeConfigDir(world: World): string {
  return join(world.home, ".claude");
}

/** The environment of real-harnesses.md §0. */
export function claudeEnv(world: World, server: ModelServer, extra: Record<string, string> = {}): Record<string, string> {
  mkdirSync(claudeConfigDir(world), { recursive: true });
  return {
    ...baseEnv(world),
    CLAUDE_CONFIG_DIR: claudeConfigDir(world),
    ANTHROPIC_BASE_URL: server.url,
    ANTHROPIC_API_KEY: "dummy",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    DISABLE_TELEMETRY: "1",
    DISABLE_AUTOUPDATER: "1",
    DISABLE_ERROR_REPORTING: "1",
    ...extra,
  };
}

/** `Hooks: Stop [cmd] …` has no query; tool events add `:<tool>`, SessionStart `:<source>`. */
const HOOK_LINE = /Hooks: ([A-Za-z]+)(?::(\S*))? \[(.*)\] finished with status (-?\d+) \((\d+(?:\.\d+)?)ms\)/;
/**
 * Some events (PreCompact, SessionEnd) are logged without the prefix and the time:
 * `PreCompact:auto [cmd] completed with status 0`, `SessionEnd:other [cmd] completed with status 0`.
 */
const TEARDOWN_LINE = /\] ([A-Za-z]+)(?::(\S*))? \[(.*)\] completed with status (-?\d+)$/;

export function parseHookRuns(debug: string): HookRun[] {
  const runs: HookRun[] = [];
  for (const line of debug.split("\n")) {
    const match = HOOK_LINE.exec(line);
    if (match) {
      runs.push({ event: match[1] as string, query: match[2] ?? "", command: match[3] as string, status: Number(match[4]), ms: Number(match[5]) });
      continue;
    }
    const end = TEARDOWN_LINE.exec(line);
    if (end) runs.push({ event: end[1] as string, query: end[2] ?? "", command: end[3] as string, status: Number(end[4]), ms: Number.NaN });
  }
  return runs;
}

let runs = 0;

export async function runClaude(install: InstalledHarness, world: World, server: ModelServer, options: ClaudeOptions): Promise<ClaudeRun> {
  const debugFile = join(world.root, `claude-debug-${++runs}.txt`);
  const args = [
    "-p",
    options.prompt,
    "--output-format",
    "stream-json",
    "--verbose",
    "--include-hook-events",
    "--debug-file",
    debugFile,
    "--permission-mode",
    "acceptEdits",
    "--allowedTools",
    (options.tools ?? DEFAULT_TOOLS).join(" "),
    ...(options.resume ? ["--resume", options.resume] : []),
    ...(options.args ?? []),
  ];
  const result = await runTracked([...install.command, ...args], {
    cwd: world.project,
    env: claudeEnv(world, server, options.env),
    timeoutMs: options.timeoutMs ?? 300_000,
  });
  const debug = existsSync(debugFile) ? readFileSync(debugFile, "utf8") : "";
  const lines = jsonLines(result.stdout);
  const init = lines.find((line) => line.type === "system" && line.subtype === "init");
  const sessionId = typeof init?.session_id === "string" ? init.session_id : (options.resume ?? "");
  return { result, lines, sessionId, debug, hooks: parseHookRuns(debug) };
}

/** A run that must have finished by itself: readable failure text otherwise. */
export function assertFinished(run: ClaudeRun): void {
  if (run.result.timedOut) throw new Error(`claude timed out after ${run.result.ms} ms\nstderr: ${run.result.stderr.slice(-2_000)}`);
  if (run.result.code !== 0) throw new Error(`claude exited ${run.result.code} (${run.result.signal})\nstderr: ${run.result.stderr.slice(-2_000)}\nstdout: ${run.result.stdout.slice(-2_000)}`);
}

/** The hooks of one event that ran a command containing `needle`. */
export function hookRunsOf(run: ClaudeRun, event: string, needle: string): HookRun[] {
  return run.hooks.filter((hook) => hook.event === event && hook.command.includes(needle));
}
