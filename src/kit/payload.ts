/** Case-tolerant readers for harness payloads (spec §3: snake_case first, then camelCase). */
import { harnessSessionId } from "../core/labels.ts";

export type Payload = Record<string, unknown>;

export function field(payload: Payload | null, ...names: string[]): unknown {
  if (!payload) return undefined;
  for (const name of names) if (payload[name] !== undefined) return payload[name];
  return undefined;
}

export function stringField(payload: Payload | null, ...names: string[]): string {
  const value = field(payload, ...names);
  return typeof value === "string" ? value : "";
}

export function objectField(payload: Payload | null, ...names: string[]): Payload {
  const value = field(payload, ...names);
  return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Payload) : {};
}

export function eventName(payload: Payload | null): string {
  return stringField(payload, "hook_event_name", "hookEventName");
}

export function toolName(payload: Payload | null): string {
  return stringField(payload, "tool_name", "toolName");
}

export function toolInput(payload: Payload | null): Payload {
  return objectField(payload, "tool_input", "toolInput");
}

/** Spelled as hooks:emit records it (trimmed, capped: core/labels.ts), so the rows of the session are found. */
export function sessionId(payload: Payload | null): string {
  return harnessSessionId(stringField(payload, "session_id", "sessionId", "sessionID")) ?? "";
}

/** A Stop hook that already blocked once sees `stop_hook_active: true`; answering again would loop. */
export function stopHookActive(payload: Payload | null): boolean {
  const value = field(payload, "stop_hook_active", "stopHookActive");
  return value === true || value === "true";
}

/**
 * A sub-agent's stop arriving at a Stop hook (Copilot CLI runs the Stop hooks for every sub-agent too, with
 * `agent_id` set): the stop guards judge the turn's end, not a sub-agent's.
 */
export function subagentStopAtStop(payload: Payload | null): boolean {
  return eventName(payload) === "Stop" && stringField(payload, "agent_id").trim() !== "";
}

const SHELL_WRAPPERS = /^(?:.*[\\/])?(?:ba|z|da|k)?sh(?:\.exe)?$|^(?:.*[\\/])?(?:pwsh|powershell)(?:\.exe)?$/i;

/**
 * The shell text of a shell tool call: Claude/Copilot `command` (string), Codex `shell` (`["bash","-lc","…"]`)
 * or `exec_command` (`cmd`), OpenCode `command`.
 */
export function shellCommand(input: Payload): string {
  const value = input.command ?? input.cmd ?? input.script;
  if (typeof value === "string") return value;
  if (Array.isArray(value) && value.every((part) => typeof part === "string")) {
    const parts = value as string[];
    const first = parts[0] ?? "";
    const flag = parts[1] ?? "";
    if (parts.length >= 3 && SHELL_WRAPPERS.test(first) && /^-{1,2}\w*c\w*$|^-Command$/i.test(flag)) return parts.slice(2).join(" ");
    return parts.map((part) => (/[\s'"]/.test(part) ? `'${part.replaceAll("'", "'\\''")}'` : part)).join(" ");
  }
  return "";
}
