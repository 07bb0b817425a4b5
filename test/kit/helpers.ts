/** Helpers shared by the guard-kit tests: run one guard through the real binary with a payload. */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { runAioson, tempDir, type RunResult } from "../helpers.ts";

export type GuardRun = RunResult & { output: Record<string, unknown> | null };

export function runGuard(guard: string, payload: unknown, options: { dir?: string; args?: string[]; env?: Record<string, string | undefined> } = {}): GuardRun {
  const dir = options.dir ?? tempDir("aioson-kit-");
  const stdin = typeof payload === "string" ? payload : JSON.stringify(payload);
  const run = runAioson([`guard:${guard}`, dir, ...(options.args ?? [])], { cwd: dir, stdin, env: options.env });
  const output = run.json !== null && typeof run.json === "object" && !Array.isArray(run.json) ? (run.json as Record<string, unknown>) : null;
  return { ...run, output };
}

/** The permission a PreToolUse answer carries (Claude/Codex/Copilot shape), or null for no decision. */
export function permissionOf(run: GuardRun): string | null {
  const specific = run.output?.hookSpecificOutput as Record<string, unknown> | undefined;
  return typeof specific?.permissionDecision === "string" ? specific.permissionDecision : null;
}

export function reasonOf(run: GuardRun): string {
  const specific = run.output?.hookSpecificOutput as Record<string, unknown> | undefined;
  if (typeof specific?.permissionDecisionReason === "string") return specific.permissionDecisionReason;
  return typeof run.output?.reason === "string" ? run.output.reason : "";
}

export function contextOf(run: GuardRun): string {
  const specific = run.output?.hookSpecificOutput as Record<string, unknown> | undefined;
  if (typeof specific?.additionalContext === "string") return specific.additionalContext;
  return typeof run.output?.systemMessage === "string" ? run.output.systemMessage : "";
}

export function writeFiles(dir: string, files: Record<string, string>): void {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
}

/** JSONL of transcript lines. */
export function jsonl(lines: readonly unknown[]): string {
  return `${lines.map((line) => JSON.stringify(line)).join("\n")}\n`;
}

/** Claude Code transcript lines. */
export const claude = {
  user: (text: string) => ({ type: "user", message: { role: "user", content: text } }),
  text: (text: string) => ({ type: "assistant", message: { role: "assistant", content: [{ type: "text", text }] } }),
  tool: (name: string, input: Record<string, unknown>) => ({ type: "assistant", message: { role: "assistant", content: [{ type: "tool_use", id: `t${Math.random()}`, name, input }] } }),
  result: (content: string) => ({ type: "user", message: { role: "user", content: [{ type: "tool_result", tool_use_id: "t", content }] } }),
};

/** Codex rollout lines. */
export const codex = {
  user: (text: string) => ({ type: "response_item", payload: { type: "message", role: "user", content: [{ type: "input_text", text }] } }),
  text: (text: string) => ({ type: "response_item", payload: { type: "message", role: "assistant", content: [{ type: "output_text", text }] } }),
  tool: (name: string, args: Record<string, unknown>) => ({ type: "response_item", payload: { type: "function_call", name, arguments: JSON.stringify(args), call_id: "c1" } }),
};

/** Copilot (VS Code) transcript lines. */
export const copilot = {
  user: (text: string) => ({ type: "user.message", data: { content: text, attachments: [] } }),
  text: (text: string) => ({ type: "assistant.message", data: { messageId: "m", content: text, toolRequests: [] } }),
  tool: (toolName: string, args: Record<string, unknown>) => ({ type: "tool.execution_start", data: { toolCallId: "x", toolName, arguments: args } }),
};
