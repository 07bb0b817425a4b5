/**
 * Recorded events → OpenTelemetry spans and log records (docs/team-export.md), following the GenAI semantic
 * conventions where they have a name for the thing (`gen_ai.operation.name`, `gen_ai.agent.name`,
 * `gen_ai.tool.name`, `gen_ai.conversation.id`) and `aioson.*` otherwise.
 *
 * - One trace per harness session (its `session_id`); rows without one share the trace of their aioson session.
 * - One span per tool call that hooks:emit recorded (`execute_tool <tool>`), ending when the hook recorded it and
 *   lasting what the harness reported (Claude Code's `duration_ms`), else zero.
 * - One log record per other event (session start and end, compaction, agent messages and activations, guard
 *   injections and decisions, runtime events), plus one for each plan update and each test-run verdict a tool call
 *   carries, correlated with its span.
 *
 * Privacy: metadata only unless the content level says otherwise (`paths` adds file paths, `full` also command
 * lines, messages, errors and plan items). Every string sent is redacted again here, whatever the store holds.
 * Ids derive from the store's random id and the event (id and time), so a resend carries the same ids.
 */
import { createHash } from "node:crypto";
import { redactSecrets } from "../text/redact.ts";
import type { ContentLevel } from "./config.ts";
import type { EventRow } from "./rows.ts";

export type AttributeValue = string | number | boolean | string[];
export type Attributes = Record<string, AttributeValue>;

export type SpanItem = {
  traceId: string;
  spanId: string;
  name: string;
  startMs: number;
  endMs: number;
  attributes: Attributes;
  /** null: the call succeeded (status UNSET); else the status message of an ERROR span. */
  error: string | null;
};

export type Severity = "INFO" | "WARN";

export type LogItem = {
  traceId: string | null;
  spanId: string | null;
  timeMs: number;
  eventName: string;
  severity: Severity;
  body: string;
  attributes: Attributes;
};

export type MapContext = { storeId: string; content: ContentLevel };

const LABEL_MAX = 256;
const CONTENT_MAX = 4_096;
const BODY_MAX = 8_192;
const LIST_MAX = 50;
const CUT = "…[truncated]";

/** Event types that hooks:emit writes for a tool call (spec 4.3). */
const TOOL_EVENTS: ReadonlySet<string> = new Set(["artifact", "step_done", "note"]);
/** Claude Code's `TaskCreated` hook event, which hooks:emit records as a plan note under its own name: not a tool call. */
const NOT_TOOLS: ReadonlySet<string> = new Set(["TaskCreated"]);
const WARN_DECISIONS: ReadonlySet<string> = new Set(["deny", "block", "ask"]);

function hexId(length: 16 | 32, ...parts: Array<string | number>): string {
  const hex = createHash("sha256").update(parts.join("\u0000")).digest("hex").slice(0, length);
  // An all-zero id is invalid in OTLP; a hash that produces one is replaced by another of its bits.
  return /^0+$/.test(hex) ? `1${hex.slice(1)}` : hex;
}

function cap(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - CUT.length)}${CUT}` : text;
}

/** Redaction runs on a window a little larger than the cap, so a cut never leaves half a secret. */
function clean(text: string, max: number): string {
  return cap(redactSecrets(text.length > max * 2 ? text.slice(0, max * 2) : text), max);
}

function str(payload: Readonly<Record<string, unknown>>, key: string): string | null {
  const value = payload[key];
  return typeof value === "string" && value.trim() !== "" ? value : null;
}

function num(payload: Readonly<Record<string, unknown>>, key: string): number | null {
  const value = payload[key];
  return typeof value === "number" && Number.isFinite(value) ? value : null;
}

/** Attributes built with redaction and bounds applied to every value. */
class Bag {
  readonly attributes: Attributes = {};

  label(key: string, value: string | null | undefined): this {
    if (value) this.attributes[key] = clean(value, LABEL_MAX);
    return this;
  }

  content(key: string, value: string | null | undefined): this {
    if (value) this.attributes[key] = clean(value, CONTENT_MAX);
    return this;
  }

  list(key: string, values: readonly string[]): this {
    if (values.length > 0) this.attributes[key] = values.slice(0, LIST_MAX).map((value) => clean(value, CONTENT_MAX));
    return this;
  }

  number(key: string, value: number | null): this {
    if (value !== null && Number.isFinite(value)) this.attributes[key] = value;
    return this;
  }

  flag(key: string, value: boolean | null): this {
    if (value !== null) this.attributes[key] = value;
    return this;
  }
}

function agentName(row: EventRow): string | null {
  const name = row.agentName?.replace(/^@/, "") ?? "";
  return name || null;
}

function harnessOf(row: EventRow): string | null {
  return row.harness ?? str(row.payload, "harness") ?? (row.eventType === "session_started" ? str(row.payload, "tool_session") : null);
}

/** `aioson.<event type>`, in the characters an event name is made of. */
function eventName(row: EventRow, suffix?: string): string {
  const type = row.eventType.toLowerCase().replace(/[^a-z0-9_.-]+/g, "_").slice(0, 64);
  return `aioson.${suffix ?? type}`;
}

function traceIdOf(ctx: MapContext, row: EventRow): string | null {
  if (row.harnessSessionId) return hexId(32, "trace", ctx.storeId, "harness", row.harnessSessionId);
  if (row.sessionKey) return hexId(32, "trace", ctx.storeId, "session", row.sessionKey);
  return null;
}

function spanIdOf(ctx: MapContext, row: EventRow): string {
  return hexId(16, "span", ctx.storeId, row.id, row.createdAt);
}

function common(row: EventRow): Bag {
  return new Bag()
    .number("aioson.event.id", row.id)
    .label("aioson.event.type", row.eventType)
    .label("gen_ai.agent.name", agentName(row))
    .label("gen_ai.conversation.id", row.harnessSessionId)
    .label("aioson.harness", harnessOf(row))
    .label("aioson.session.key", row.sessionKey)
    .label("aioson.run.key", row.runKey)
    .label("aioson.source", row.source);
}

function isToolCall(row: EventRow): boolean {
  return row.payload.written_by === "hooks:emit" && row.toolName !== null && !NOT_TOOLS.has(row.toolName) && TOOL_EVENTS.has(row.eventType);
}

/** A plan update (TodoWrite, update_plan, Claude Code's TaskCreate/TaskUpdate/TaskCreated): its items and counts. */
function isPlan(payload: Readonly<Record<string, unknown>>): boolean {
  return Array.isArray(payload.todos) && typeof payload.total === "number";
}

/** Rows of one tool call: a patch or multi-file edit is one artifact row per file, all written in one transaction. */
function sameCall(a: EventRow, b: EventRow): boolean {
  return (
    a.eventType === "artifact" && b.eventType === "artifact" && a.toolName === b.toolName && a.runKey === b.runKey &&
    a.harnessSessionId === b.harnessSessionId && a.createdAt === b.createdAt
  );
}

function toolCalls(rows: readonly EventRow[]): EventRow[][] {
  const calls: EventRow[][] = [];
  for (const row of rows) {
    if (!isToolCall(row)) continue;
    const last = calls[calls.length - 1];
    const previous = last?.[last.length - 1];
    if (last && previous && sameCall(previous, row)) last.push(row);
    else calls.push([row]);
  }
  return calls;
}

function planItems(payload: Readonly<Record<string, unknown>>): string[] {
  const todos = payload.todos;
  if (!Array.isArray(todos)) return [];
  const items: string[] = [];
  for (const todo of todos.slice(0, LIST_MAX)) {
    if (todo === null || typeof todo !== "object") continue;
    const { content, status } = todo as Record<string, unknown>;
    if (typeof content === "string") items.push(`[${typeof status === "string" ? status.slice(0, 20) : "pending"}] ${content}`);
  }
  return items;
}

function withPaths(ctx: MapContext): boolean {
  return ctx.content !== "off";
}

function withFull(ctx: MapContext): boolean {
  return ctx.content === "full";
}

function commandFailed(row: EventRow): boolean {
  return row.eventType === "step_done" && str(row.payload, "outcome") === "failed";
}

function spanOf(ctx: MapContext, call: readonly EventRow[]): SpanItem | null {
  const first = call[0];
  if (!first) return null;
  const tool = first.toolName ?? "tool";
  const traceId = traceIdOf(ctx, first) ?? hexId(32, "trace", ctx.storeId, "event", first.id, first.createdAt);
  const bag = common(first).label("gen_ai.operation.name", "execute_tool").label("gen_ai.tool.name", tool).flag("aioson.duration.reported", first.durationMs !== null);
  const p = first.payload;
  let error: string | null = null;
  if (first.eventType === "artifact") {
    const files = call.map((row) => str(row.payload, "file")).filter((file): file is string => file !== null);
    bag.number("aioson.file.count", files.length);
    if (withPaths(ctx)) bag.content("file.path", files[0]).list("aioson.files", files.length > 1 ? files : []);
  } else if (first.eventType === "step_done") {
    const exitCode = num(p, "exit_code");
    bag.label("aioson.command.outcome", str(p, "outcome")).number("process.exit.code", exitCode).flag("aioson.command.test_runner", p.test_runner === true ? true : p.test_runner === false ? false : null);
    if (withFull(ctx)) bag.content("process.command_line", str(p, "command")).content("aioson.command.summary", str(p, "summary")).content("aioson.command.error", str(p, "error"));
    if (commandFailed(first)) {
      bag.label("error.type", "command_failed");
      error = withFull(ctx) && str(p, "error") ? clean(str(p, "error") as string, CONTENT_MAX) : exitCode !== null ? `exit code ${exitCode}` : "failed";
    }
  } else if (isPlan(p)) {
    bag.number("aioson.plan.done", num(p, "done")).number("aioson.plan.total", num(p, "total"));
    if (withFull(ctx)) bag.list("aioson.plan.items", planItems(p));
  } else if (tool === "Task") {
    bag.label("aioson.subagent.type", str(p, "subagent_type"));
    if (withFull(ctx)) bag.content("aioson.task.description", first.message);
  } else if (tool === "Skill") {
    bag.label("aioson.skill.name", str(p, "skill"));
  }
  const endMs = first.timeMs;
  return { traceId, spanId: spanIdOf(ctx, first), name: clean(`execute_tool ${tool}`, LABEL_MAX), startMs: endMs - (first.durationMs ?? 0), endMs, attributes: bag.attributes, error };
}

/** The spans of a batch of rows (rows that are not tool calls give none). */
export function spansOf(ctx: MapContext, rows: readonly EventRow[]): SpanItem[] {
  return toolCalls(rows).map((call) => spanOf(ctx, call)).filter((span): span is SpanItem => span !== null);
}

function logItem(ctx: MapContext, row: EventRow, name: string, bag: Bag, severity: Severity, body: string, spanId: string | null): LogItem {
  bag.label("log.record.uid", hexId(32, "log", ctx.storeId, name, row.id, row.createdAt));
  return { traceId: traceIdOf(ctx, row), spanId, timeMs: row.timeMs, eventName: name, severity, body, attributes: bag.attributes };
}

function planLog(ctx: MapContext, row: EventRow, spanId: string | null): LogItem {
  const p = row.payload;
  const bag = common(row).label("gen_ai.tool.name", isToolCall(row) ? row.toolName : null).number("aioson.plan.done", num(p, "done")).number("aioson.plan.total", num(p, "total"));
  if (withFull(ctx)) bag.list("aioson.plan.items", planItems(p));
  return logItem(ctx, row, "aioson.plan_updated", bag, "INFO", withFull(ctx) ? clean(str(p, "summary") ?? "plan updated", BODY_MAX) : "plan_updated", spanId);
}

/** The log records a tool call carries: its plan update, its test-run verdict. */
function toolCallLogs(ctx: MapContext, row: EventRow): LogItem[] {
  const p = row.payload;
  const spanId = spanIdOf(ctx, row);
  const logs: LogItem[] = [];
  if (isPlan(p)) logs.push(planLog(ctx, row, spanId));
  const outcome = str(p, "outcome");
  if (row.eventType === "step_done" && p.test_runner === true && (outcome === "passed" || outcome === "failed")) {
    const bag = common(row).label("gen_ai.tool.name", row.toolName).label("aioson.command.outcome", outcome).number("process.exit.code", num(p, "exit_code"));
    if (withFull(ctx)) bag.content("process.command_line", str(p, "command")).content("aioson.command.summary", str(p, "summary"));
    const body = withFull(ctx) ? clean(str(p, "summary") ?? `tests ${outcome}`, BODY_MAX) : `test_result ${outcome}`;
    logs.push(logItem(ctx, row, "aioson.test_result", bag, outcome === "failed" ? "WARN" : "INFO", body, spanId));
  }
  return logs;
}

function eventLog(ctx: MapContext, row: EventRow): LogItem {
  const p = row.payload;
  if (isPlan(p)) return planLog(ctx, row, null);
  const bag = common(row)
    .label("aioson.phase", row.phase)
    .label("aioson.status", row.status)
    .label("aioson.verdict", row.verdict)
    .label("aioson.worker.status", row.workerStatus)
    .label("aioson.plan.step_id", row.planStepId)
    .number("aioson.progress.pct", row.progressPct)
    .number("aioson.token_count", row.tokenCount);
  let severity: Severity = row.verdict && /^FAIL/.test(row.verdict) ? "WARN" : "INFO";
  switch (row.eventType) {
    case "compaction":
      bag.label("aioson.compaction.trigger", str(p, "trigger"));
      break;
    case "session_started":
      bag.label("aioson.session.tool", str(p, "tool_session"));
      break;
    case "session_ended":
      bag.label("aioson.session.end_reason", str(p, "reason"));
      break;
    case "agent_activated":
      bag.label("aioson.agent.activated", str(p, "agent")).label("aioson.activation.via", str(p, "via"));
      break;
    case "agent_message":
      bag.number("aioson.message.length", str(p, "text")?.length ?? null);
      break;
    case "guard_injected": {
      const rules = Array.isArray(p.rules) ? p.rules.filter((rule): rule is string => typeof rule === "string") : [];
      const jev = p.jev !== null && typeof p.jev === "object" ? (p.jev as Record<string, unknown>) : {};
      bag
        .label("aioson.guard.name", "context:guard")
        .label("aioson.guard.decision", "inject")
        .label("gen_ai.tool.name", str(p, "tool"))
        .number("aioson.guard.rule_count", rules.length)
        .number("aioson.guard.violation_count", Array.isArray(p.violations) ? p.violations.length : null)
        .label("aioson.guard.confidence", str(p, "confidence"))
        .label("aioson.guard.jev.status", str(jev, "status"));
      if (withPaths(ctx)) bag.content("file.path", str(p, "file")).list("aioson.guard.rules", rules);
      break;
    }
    case "guard_decision": {
      const decision = str(p, "decision");
      bag.label("aioson.guard.name", str(p, "guard")).label("aioson.guard.decision", decision).label("gen_ai.tool.name", str(p, "tool"));
      if (withFull(ctx)) bag.content("aioson.guard.reason", str(p, "reason"));
      if (decision && WARN_DECISIONS.has(decision)) severity = "WARN";
      break;
    }
  }
  const text = row.eventType === "agent_message" ? (str(p, "text") ?? row.message) : row.message;
  const body = withFull(ctx) && text ? clean(text, BODY_MAX) : clean(row.eventType, LABEL_MAX);
  return logItem(ctx, row, eventName(row), bag, severity, body, null);
}

/** The log records of a batch of rows. */
export function logsOf(ctx: MapContext, rows: readonly EventRow[]): LogItem[] {
  return rows.flatMap((row) => (isToolCall(row) ? toolCallLogs(ctx, row) : [eventLog(ctx, row)]));
}
