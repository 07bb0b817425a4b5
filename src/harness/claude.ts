/**
 * Claude Code: the reference envelope (spec 3.1); newer builds call Task `Agent` and Windows Bash `PowerShell`.
 * 2.1.3xx keeps plans task by task (real-harnesses §1): `TaskCreate {subject}` answers `{task:{id, subject}}`,
 * `TaskUpdate {taskId, status?, subject?}` answers `{taskId, statusChange:{from, to}}`, and the `TaskCreated` event
 * carries `task_id`, `task_subject`. Each becomes a `TaskChange` (types.ts).
 */
import * as v from "valibot";
import { eventFromEnvelope, firstText, parseEnvelope } from "./common.ts";
import type { Adapter, HookEvent, TaskChange } from "./types.ts";

const TOOL_ALIASES: Readonly<Record<string, string>> = { Agent: "Task", PowerShell: "Bash" };

/** Built on first use: most events carry no task change, and a hook pays for every schema it builds. */
function taskPayloadSchema() {
  const text = v.fallback(v.optional(v.string()), undefined);
  // Claude's ids are small numbers as strings; anything else is not a task id a plan is keyed by.
  const id = v.fallback(v.optional(v.pipe(v.union([v.string(), v.pipe(v.number(), v.integer(), v.transform(String))]), v.regex(/^[A-Za-z0-9._-]{1,64}$/))), undefined);
  return v.object({
    task_id: id,
    task_subject: text,
    tool_input: v.fallback(v.optional(v.object({ taskId: id, subject: text, status: text })), undefined),
    tool_response: v.fallback(
      v.optional(
        v.object({
          task: v.fallback(v.optional(v.object({ id, subject: text })), undefined),
          taskId: id,
          statusChange: v.fallback(v.optional(v.object({ to: text })), undefined),
        }),
      ),
      undefined,
    ),
  });
}

let schema: ReturnType<typeof taskPayloadSchema> | undefined;

function taskChange(raw: Record<string, unknown>, event: HookEvent): TaskChange | null {
  const tool = event.tool?.name;
  if (event.event !== "TaskCreated" && tool !== "TaskCreate" && tool !== "TaskUpdate") return null;
  schema ??= taskPayloadSchema();
  const parsed = v.safeParse(schema, raw);
  if (!parsed.success) return null;
  const { task_id, task_subject, tool_input: input, tool_response: response } = parsed.output;
  if (event.event === "TaskCreated" && !tool) return { op: "create", id: task_id ?? null, subject: firstText(task_subject), status: null };
  if (tool === "TaskCreate") return { op: "create", id: response?.task?.id ?? null, subject: firstText(input?.subject, response?.task?.subject), status: null };
  const updated = input?.taskId ?? response?.taskId;
  if (!updated) return null;
  return { op: "update", id: updated, subject: firstText(input?.subject), status: firstText(input?.status, response?.statusChange?.to) };
}

/** An async sub-agent's result handed back as a prompt: the harness speaking, never the user (no activation). */
const TASK_NOTIFICATION = /^\s*<task-notification>/;

export const claudeAdapter: Adapter = (raw) => {
  const event = eventFromEnvelope(parseEnvelope(raw), { harness: "claude", toolAliases: TOOL_ALIASES });
  if (event.prompt !== null && TASK_NOTIFICATION.test(event.prompt)) return { ...event, prompt: null };
  return event.tool || event.event === "TaskCreated" ? { ...event, taskChange: taskChange(raw, event) } : event;
};
