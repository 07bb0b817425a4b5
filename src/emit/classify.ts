/**
 * Spec 4.3–4.12: a normalised hook event becomes zero or more records. Pure except for two reads the
 * spec asks for (`.aioson/agents/<name>.md` for prompt activation, the transcript tail at Stop).
 * Every string is redacted before it is capped, so a cut can never leave half a secret behind.
 */
import { redactDeep, redactSecrets } from "../text/redact.ts";
import type { HookEvent, PlanItem, ToolCall } from "../harness/types.ts";
import { promptActivation, skillActivation } from "./activation.ts";
import { commandOutcome } from "./outcome.ts";
import { MAX_PATCH_FILES, parsePatchHeaders } from "./patch.ts";
import { projectPath } from "./paths.ts";
import type { EmitRecord } from "./records.ts";
import { capHead, capTail, capWithMark, collapseWhitespace } from "./text.ts";
import { lastAssistantText } from "./transcript.ts";
import { COMPACTION_CONFIRMED, NEEDS_CONFIRMATION } from "../recap/markers.ts";

export type ClassifyContext = { root: string; source: string; eventName: string | null };

const KNOWN_EVENTS = [
  "PreToolUse", "PostToolUse", "PostToolUseFailure", "UserPromptSubmit", "Stop", "SubagentStop", "PreCompact",
  "PostCompact", "SessionStart", "SessionEnd", "Notification", "PermissionRequest", "SubagentStart", "TaskCreated",
  "TaskCompleted",
] as const;
const EVENT_BY_LOWER = new Map<string, string>(KNOWN_EVENTS.map((name) => [name.toLowerCase(), name]));

export function isKnownEvent(name: string): boolean {
  return EVENT_BY_LOWER.has(name.toLowerCase());
}

/** `--event` → payload → inferred (spec 4.2 step 3); known names are matched case-insensitively. */
export function eventName(flag: string | null, event: HookEvent): string | null {
  const given = (flag ?? event.event)?.trim();
  if (given) return EVENT_BY_LOWER.get(given.toLowerCase()) ?? given;
  if (event.tool) return "PostToolUse";
  if (event.prompt) return "UserPromptSubmit";
  return null;
}

const FILE_TOOLS: ReadonlySet<string> = new Set(["Write", "Edit", "MultiEdit", "NotebookEdit"]);
/**
 * `TodoRead`: Claude Code's old read-only todo tool, and Copilot's `manage_todo_list` with `operation: "read"`;
 * `TaskGet`/`TaskList`: Claude Code 2.1.3xx reading its task plan.
 */
const READ_ONLY_TOOLS: ReadonlySet<string> = new Set(["Read", "Glob", "Grep", "LS", "NotebookRead", "TodoRead", "TaskGet", "TaskList"]);
const PLAN_TOOLS: ReadonlySet<string> = new Set(["TodoWrite", "update_plan"]);
/** Plans kept task by task (Claude Code 2.1.3xx): each call is a change folded into the session's plan. */
const TASK_PLAN_TOOLS: ReadonlySet<string> = new Set(["TaskCreate", "TaskUpdate"]);
/** Harnesses that report non-zero exits as PostToolUseFailure (spec 4.5 rule 5). */
const FAILURE_EVENT_HARNESSES: ReadonlySet<string> = new Set(["claude", "antigravity"]);
/**
 * Harnesses whose compactions are confirmed after the fact (Claude Code: `SessionStart(compact)`, which runs
 * hooks:recap, and `PostCompact`). Their PreCompact can fire for a compaction that then never happens
 * (real-harnesses §1), so their marker says it waits for a confirmation (recap/rows.ts counts it only then).
 */
const CONFIRMING_HARNESSES: ReadonlySet<string> = new Set(["claude"]);

const COMMAND_MAX = 2_000;
const ERROR_MAX = 500;
const TEXT_MAX = 8_000;
const PLAN_ITEMS_MAX = 50;
const PLAN_TEXT_MAX = 200;
const SUMMARY_MAX = 200;
/** Names and paths from a payload are labels: long ones are cut visibly rather than stored whole. */
const PATH_MAX = 1_024;
const NAME_MAX = 200;
const MESSAGE_MAX = 1_100;

/**
 * Redacts the head of a text that is about to be capped: only a window twice the cap is scanned (a
 * 10 MB field costs nothing), and the cap then drops the window's edge where a secret could be cut.
 */
function clean(text: string, window = 4_096): string {
  return redactSecrets(text.length > window ? text.slice(0, window) : text);
}

/** The same for a text whose tail is kept (command output). */
function cleanTail(text: string, window = 4_096): string {
  return redactSecrets(text.length > window ? text.slice(-window) : text);
}

function cleanName(text: string): string {
  return capHead(clean(text), NAME_MAX);
}

function cleanPath(root: string, cwd: string | null, path: string): string {
  return path ? capHead(clean(projectPath(root, cwd, path)), PATH_MAX) : "";
}

function isIgnoredTool(name: string): boolean {
  return READ_ONLY_TOOLS.has(name) || name.startsWith("mcp__");
}

function fileRecord(tool: ToolCall, file: string): EmitRecord {
  if (!file) return { eventType: "artifact", message: tool.name, toolName: tool.name, payload: { tool: tool.name } };
  return { eventType: "artifact", message: `${tool.name}: ${file}`, toolName: tool.name, payload: { tool: tool.name, file }, file };
}

/** One artifact per distinct project path; a multi-file edit is bounded like a patch (spec 4.4). */
function fileRecords(ctx: ClassifyContext, event: HookEvent, tool: ToolCall): EmitRecord[] {
  if (!tool.files) return [fileRecord(tool, tool.filePath ? cleanPath(ctx.root, event.cwd, tool.filePath) : "")];
  const files = new Set<string>();
  for (const path of tool.files) {
    const file = cleanPath(ctx.root, event.cwd, path);
    if (file) files.add(file);
    if (files.size === MAX_PATCH_FILES) break;
  }
  return [...files].map((file) => fileRecord(tool, file));
}

function patchRecords(ctx: ClassifyContext, event: HookEvent, tool: ToolCall): EmitRecord[] {
  if (!tool.patch) return [];
  const entries = parsePatchHeaders(tool.patch, (path) => cleanPath(ctx.root, event.cwd, path));
  return entries.map((entry) => ({
    eventType: "artifact",
    message: `apply_patch: ${entry.path}`,
    toolName: "apply_patch",
    payload: { tool: "apply_patch", file: entry.path, op: entry.op, ...(entry.from !== undefined ? { from: entry.from } : {}) },
    file: entry.path,
  }));
}

function failureText(event: HookEvent, failed: boolean): string | null {
  if (!failed) return null;
  if (event.error) return capHead(clean(event.error.trim()), ERROR_MAX);
  const output = event.response?.text.trim() ?? "";
  return output ? capTail(cleanTail(output), ERROR_MAX) : null;
}

function bashRecord(ctx: ClassifyContext, event: HookEvent, tool: ToolCall, failureEvent: boolean): EmitRecord {
  const command = clean(tool.command ?? "").trim();
  const result = commandOutcome({
    command,
    failureEvent,
    error: event.error,
    response: event.response,
    impliesSuccess: FAILURE_EVENT_HARNESSES.has(ctx.source) && ctx.eventName === "PostToolUse",
  });
  const error = failureText(event, result.outcome === "failed");
  const payload: Record<string, unknown> = {
    tool: "Bash",
    command: capHead(command, COMMAND_MAX),
    outcome: result.outcome,
    exit_code: result.exitCode,
    test_runner: result.testRunner,
  };
  if (result.summary) payload.summary = capHead(clean(result.summary), SUMMARY_MAX);
  if (error) payload.error = error;
  return { eventType: "step_done", message: command ? `$ ${command.slice(0, 80)}` : "Bash", toolName: "Bash", payload };
}

export function normalizeStatus(status: string): "completed" | "in_progress" | "pending" {
  const s = status.trim().toLowerCase();
  if (s === "completed" || s === "complete" || s === "done") return "completed";
  if (s === "in_progress" || s === "in-progress" || s === "active") return "in_progress";
  return "pending";
}

function planRecord(tool: ToolCall, items: readonly PlanItem[]): EmitRecord {
  const todos = items.map((item) => ({ content: capHead(clean(item.text), PLAN_TEXT_MAX), status: normalizeStatus(item.status) }));
  const done = todos.filter((todo) => todo.status === "completed").length;
  const summary = `Tasks: ${done} of ${todos.length} done`;
  return {
    eventType: "note",
    message: "Task list updated",
    toolName: tool.name,
    payload: { tool: tool.name, todos: todos.slice(0, PLAN_ITEMS_MAX), done, total: todos.length, summary },
  };
}

function taskRecord(tool: ToolCall): EmitRecord {
  const text = collapseWhitespace(clean(tool.description ?? tool.taskPrompt ?? ""));
  return {
    eventType: "note",
    message: text ? text.slice(0, 80) : "Task launched",
    toolName: "Task",
    payload: { tool: "Task", subagent_type: tool.subagentType ? cleanName(tool.subagentType) : null },
  };
}

/** A TaskCreate/TaskUpdate call or a TaskCreated event; persist.ts folds it into the plan (spec 4.8 summary). */
function taskChangeRecord(toolName: string, change: HookEvent["taskChange"]): EmitRecord[] {
  if (!change) return [];
  const subject = change.subject ? capHead(clean(change.subject.trim()), PLAN_TEXT_MAX) : null;
  const status = change.status ? cleanName(change.status.trim()) : null;
  return [{ eventType: "note", message: "Task list updated", toolName, payload: { tool: toolName }, taskChange: { ...change, subject, status } }];
}

function activationRecord(agent: string, via: "prompt" | "skill"): EmitRecord {
  return { eventType: "agent_activated", message: `Agent activated: @${agent}`, toolName: via === "skill" ? "Skill" : null, payload: { agent, via }, activatedAgent: agent };
}

function skillRecord(tool: ToolCall): EmitRecord {
  const skill = tool.skill?.trim() ?? "";
  const agent = skill ? skillActivation(skill) : null;
  if (agent) return activationRecord(agent, "skill");
  const name = cleanName(skill);
  return { eventType: "note", message: name ? `Skill: ${name}` : "Skill", toolName: "Skill", payload: { tool: "Skill", skill: name || null } };
}

function toolRecords(ctx: ClassifyContext, event: HookEvent, failureEvent: boolean): EmitRecord[] {
  const tool = event.tool;
  if (!tool || !tool.name) return [];
  // Adapters already map shell/local_shell/run_command/... onto Bash and patch onto apply_patch.
  if (tool.name === "Bash") return [bashRecord(ctx, event, tool, failureEvent)];
  // A failed file (or other) tool changed nothing (spec 4.3 PostToolUseFailure).
  if (failureEvent || isIgnoredTool(tool.name)) return [];
  if (FILE_TOOLS.has(tool.name)) return fileRecords(ctx, event, tool);
  if (tool.name === "apply_patch") return patchRecords(ctx, event, tool);
  if (tool.name === "Task") return [taskRecord(tool)];
  if (PLAN_TOOLS.has(tool.name)) return [planRecord(tool, tool.plan ?? [])];
  if (TASK_PLAN_TOOLS.has(tool.name)) return taskChangeRecord(tool.name, event.taskChange);
  if (tool.name === "Skill") return [skillRecord(tool)];
  const name = cleanName(tool.name);
  return [{ eventType: "note", message: `[${ctx.source}] ${name}`, toolName: name, payload: { tool: name } }];
}

function stopRecords(event: HookEvent): EmitRecord[] {
  const raw = event.lastMessage ?? (event.transcriptPath ? lastAssistantText(event.transcriptPath) : null);
  if (!raw || raw.trim() === "") return [];
  const text = clean(raw, TEXT_MAX * 2);
  return [{ eventType: "agent_message", message: collapseWhitespace(text).slice(0, 200), toolName: null, payload: { text: capWithMark(text, TEXT_MAX) } }];
}

/** The harness says the compaction happened (see CONFIRMING_HARNESSES). */
function confirmationRecord(via: "PostCompact" | "SessionStart", trigger: string | null): EmitRecord {
  const cleanTrigger = trigger ? cleanName(trigger) : null;
  return { eventType: COMPACTION_CONFIRMED, message: `Compaction confirmed (${via})`, toolName: null, payload: { via, trigger: cleanTrigger } };
}

/** Spec 4.12 step 2: the closing record (its session is resolved without auto-start). */
function sessionEndRecord(source: string, event: HookEvent): EmitRecord {
  const reason = event.reason ? cleanName(event.reason) : null;
  return {
    eventType: "session_ended",
    message: `Session ended (${source})${reason ? `: ${reason}` : ""}`,
    toolName: null,
    payload: { reason },
  };
}

/** The records of one hook event (spec 4.3–4.12); zero records means "skip, open nothing". */
export function classify(ctx: ClassifyContext, event: HookEvent): EmitRecord[] {
  const records = classifyRaw(ctx, event);
  // Belt and braces: every stored string passes the redaction, whatever produced it.
  return records.map((record) => ({ ...record, message: capHead(redactSecrets(record.message), MESSAGE_MAX), payload: redactDeep(record.payload) }));
}

function classifyRaw(ctx: ClassifyContext, event: HookEvent): EmitRecord[] {
  switch (ctx.eventName) {
    case "PostToolUse":
      return toolRecords(ctx, event, false);
    case "PostToolUseFailure":
      return toolRecords(ctx, event, true);
    case "UserPromptSubmit": {
      const agent = event.prompt ? promptActivation(ctx.root, event.prompt) : null;
      return agent ? [activationRecord(agent, "prompt")] : [];
    }
    case "Stop":
      return stopRecords(event);
    case "PreCompact": {
      const trigger = event.trigger ? cleanName(event.trigger) : null;
      // A confirmation finds its marker through the harness session id: without one nothing could confirm it.
      const payload = CONFIRMING_HARNESSES.has(ctx.source) && event.sessionId ? { trigger, [NEEDS_CONFIRMATION]: true } : { trigger };
      return [{ eventType: "compaction", message: trigger ? `Compaction (${trigger})` : "Compaction", toolName: null, payload }];
    }
    case "PostCompact":
      return [confirmationRecord("PostCompact", event.trigger)];
    case "SessionStart":
      return event.startSource === "compact" ? [confirmationRecord("SessionStart", null)] : [];
    case "TaskCreated":
      return taskChangeRecord("TaskCreated", event.taskChange);
    case "SessionEnd":
      return [sessionEndRecord(ctx.source, event)];
    default:
      return [];
  }
}
