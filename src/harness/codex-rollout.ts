/**
 * Codex 0.169 hands PostToolUse(Bash) only the command's output text — no exit line, no exit code — although it
 * already wrote the code to the session's rollout (the JSONL at `transcript_path`) when the hook runs:
 * `{"type":"event_msg","payload":{"type":"item_completed","item":{"type":"CommandExecution","id":"<call id>",
 * "command":[…, "<cmd>"],"exit_code":N,…}}}` (the call's `function_call_output`, "Process exited with code N", is
 * written after the hook and is read when a later version writes it first). This module finds that code: a bounded
 * read of the rollout's tail, a byte search for this call's id (or, without one, its command), and only the lines
 * that hold it parsed and checked. Any doubt answers null (the outcome stays what the payload alone says).
 */
import { closeSync } from "node:fs";
import * as v from "valibot";
import { openRegularFile, readBytes } from "../core/regular-file.ts";
import { exitLineCode } from "../emit/outcome.ts";
import type { HookEvent } from "./types.ts";

/**
 * The call's lines sit at the end of the rollout when the hook runs: the last 64 KiB first, the last 1 MiB when
 * they are not all there (a long output in the item), never more.
 */
const ROLLOUT_WINDOWS = [64 * 1024, 1024 * 1024] as const;
/** Lines holding the needle looked at, newest first (the call's item, its function_call, earlier mentions). */
const MAX_CANDIDATES = 16;

const LineSchema = v.object({
  type: v.string(),
  payload: v.looseObject({
    type: v.string(),
    item: v.optional(v.looseObject({ type: v.string(), id: v.optional(v.string()), command: v.optional(v.unknown()), exit_code: v.optional(v.nullable(v.number())) })),
    call_id: v.optional(v.string()),
    output: v.optional(v.unknown()),
  }),
});

type Match = { callId: string | null; command: string | null };

/** The command Codex ran, as its item records it: `[shell, flag, "<cmd>"]` (the last element) or a string. */
function itemCommand(command: unknown): string | null {
  if (typeof command === "string") return command;
  return Array.isArray(command) && typeof command.at(-1) === "string" ? (command.at(-1) as string) : null;
}

/** The exit code one rollout line gives for the call, or undefined when the line is not about it. */
function codeOfLine(line: string, match: Match): number | undefined {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return undefined;
  }
  const entry = v.safeParse(LineSchema, parsed);
  if (!entry.success) return undefined;
  const { payload } = entry.output;
  const item = payload.item;
  if (entry.output.type === "event_msg" && payload.type === "item_completed" && item?.type === "CommandExecution") {
    const same = match.callId !== null ? item.id === match.callId : itemCommand(item.command) === match.command;
    if (same && typeof item.exit_code === "number" && Number.isInteger(item.exit_code)) return item.exit_code;
    return undefined;
  }
  if (entry.output.type === "response_item" && payload.type === "function_call_output" && match.callId !== null && payload.call_id === match.callId) {
    return typeof payload.output === "string" ? (exitLineCode(payload.output) ?? undefined) : undefined;
  }
  return undefined;
}

/**
 * The call's code in one window (the file's last `tail.length` bytes): a number, null when the window shows the
 * call has none, or "wider" when a bigger window might still find it.
 */
function codeInWindow(tail: Buffer, whole: boolean, needle: Buffer, match: Match): number | null | "wider" {
  let end = tail.length;
  for (let seen = 0; seen < MAX_CANDIDATES; seen++) {
    const at = end > 0 ? tail.lastIndexOf(needle, end - 1) : -1;
    if (at < 0) return whole ? null : "wider";
    const start = tail.lastIndexOf(0x0a, at) + 1;
    // A line cut by the window's start is not parsed: that part of the file was not read.
    if (start === 0 && !whole) return "wider";
    const stop = tail.indexOf(0x0a, at);
    const code = codeOfLine(tail.subarray(start, stop < 0 ? tail.length : stop).toString("utf8"), match);
    if (code !== undefined) return code;
    end = start;
  }
  return null;
}

/** The exit code the rollout holds for this call, newest mention first, or null. */
export function rolloutExitCode(path: string, match: Match): number | null {
  const text = match.callId !== null ? JSON.stringify(match.callId) : match.command !== null ? JSON.stringify(match.command) : null;
  if (text === null || text.length < 4) return null;
  const needle = Buffer.from(text, "utf8");
  const opened = openRegularFile(path);
  if (opened.kind !== "open") return null;
  try {
    for (const window of ROLLOUT_WINDOWS) {
      const length = Math.min(opened.size, window);
      const found = codeInWindow(readBytes(opened.fd, opened.size - length, length), length === opened.size, needle, match);
      if (found !== "wider") return found;
    }
    return null;
  } catch {
    return null;
  } finally {
    closeSync(opened.fd);
  }
}

/**
 * A Codex PostToolUse(Bash) whose response carries neither a structured code nor an exit line gets the code the
 * rollout recorded for this call (spec 4.5 rule 2 then decides, as for any harness that reports one).
 */
export function withRolloutExitCode(event: HookEvent, callId: string | null): HookEvent {
  const { response, tool, transcriptPath } = event;
  if (event.event !== "PostToolUse" || tool?.name !== "Bash" || !response || response.exitCode !== null || !transcriptPath) return event;
  if (exitLineCode(response.text) !== null) return event;
  const code = rolloutExitCode(transcriptPath, { callId, command: tool.command });
  return code === null ? event : { ...event, response: { ...response, exitCode: code } };
}
