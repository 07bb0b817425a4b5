/**
 * OTLP request bodies through the official OpenTelemetry JS serializers (`@opentelemetry/otlp-transformer`, the
 * code the OpenTelemetry SDK exporters themselves use): protobuf or the OTLP JSON mapping, and their readers for
 * the collector's answer. They take the SDK's read-only span and log record shapes, which are built here from
 * the export's own items without loading the SDK. Only the exporter imports this module.
 */
import { SeverityNumber, SpanKind, SpanStatusCode, TraceFlags } from "@opentelemetry/api";
import { JsonLogsSerializer, JsonTraceSerializer, ProtobufLogsSerializer, ProtobufTraceSerializer } from "@opentelemetry/otlp-transformer";
import { resourceFromAttributes } from "@opentelemetry/resources";
import type { Protocol, Signal } from "./config.ts";
import type { LogItem, Severity, SpanItem } from "./mapping.ts";

type ReadableSpan = Parameters<typeof ProtobufTraceSerializer.serializeRequest>[0][number];
type ReadableLogRecord = Parameters<typeof ProtobufLogsSerializer.serializeRequest>[0][number];
type Resource = ReadableSpan["resource"];
type HrTime = ReadableSpan["startTime"];

export type Scope = { name: string; version: string };

/** The encoding context of one export: the resource and scope every item of it shares. */
export type Encoder = { resource: Resource; scope: Scope };

export function encoder(resourceAttributes: Readonly<Record<string, string>>, scope: Scope): Encoder {
  return { resource: resourceFromAttributes({ ...resourceAttributes }), scope };
}

function hrTime(ms: number): HrTime {
  const whole = Math.floor(ms);
  return [Math.floor(whole / 1000), (whole % 1000) * 1_000_000 + Math.round((ms - whole) * 1_000_000)];
}

const SEVERITY: Readonly<Record<Severity, SeverityNumber>> = { INFO: SeverityNumber.INFO, WARN: SeverityNumber.WARN };

function readableSpan(enc: Encoder, item: SpanItem): ReadableSpan {
  const context = { traceId: item.traceId, spanId: item.spanId, traceFlags: TraceFlags.SAMPLED };
  return {
    name: item.name,
    kind: SpanKind.INTERNAL,
    spanContext: () => context,
    startTime: hrTime(item.startMs),
    endTime: hrTime(item.endMs),
    duration: hrTime(item.endMs - item.startMs),
    status: item.error === null ? { code: SpanStatusCode.UNSET } : { code: SpanStatusCode.ERROR, message: item.error },
    attributes: item.attributes,
    links: [],
    events: [],
    ended: true,
    resource: enc.resource,
    instrumentationScope: enc.scope,
    droppedAttributesCount: 0,
    droppedEventsCount: 0,
    droppedLinksCount: 0,
  };
}

function readableLog(enc: Encoder, item: LogItem, observedMs: number): ReadableLogRecord {
  return {
    hrTime: hrTime(item.timeMs),
    hrTimeObserved: hrTime(observedMs),
    ...(item.traceId ? { spanContext: { traceId: item.traceId, spanId: item.spanId ?? "", traceFlags: TraceFlags.SAMPLED } } : {}),
    severityText: item.severity,
    severityNumber: SEVERITY[item.severity],
    body: item.body,
    eventName: item.eventName,
    resource: enc.resource,
    instrumentationScope: enc.scope,
    attributes: item.attributes,
    droppedAttributesCount: 0,
  };
}

export function encodeSpans(enc: Encoder, protocol: Protocol, items: readonly SpanItem[]): Uint8Array {
  const spans = items.map((item) => readableSpan(enc, item));
  const body = protocol === "http/json" ? JsonTraceSerializer.serializeRequest(spans) : ProtobufTraceSerializer.serializeRequest(spans);
  if (!body) throw new Error("the OTLP trace serializer produced nothing");
  return body;
}

export function encodeLogs(enc: Encoder, protocol: Protocol, items: readonly LogItem[], observedMs: number): Uint8Array {
  const logs = items.map((item) => readableLog(enc, item, observedMs));
  const body = protocol === "http/json" ? JsonLogsSerializer.serializeRequest(logs) : ProtobufLogsSerializer.serializeRequest(logs);
  if (!body) throw new Error("the OTLP logs serializer produced nothing");
  return body;
}

export type PartialSuccess = { rejected: number; message: string | null };

function count(value: unknown): number {
  const n = typeof value === "string" ? Number(value) : value;
  return typeof n === "number" && Number.isSafeInteger(n) && n > 0 ? n : 0;
}

/**
 * The collector's answer to a successful export: how many items it rejected, and why. An empty or unreadable body
 * is a full success (the OTLP specification lets a server answer with no partial_success).
 */
export function readPartialSuccess(signal: Signal, protocol: Protocol, body: Uint8Array): PartialSuccess {
  if (body.length === 0) return { rejected: 0, message: null };
  try {
    const response: unknown =
      signal === "traces"
        ? (protocol === "http/json" ? JsonTraceSerializer : ProtobufTraceSerializer).deserializeResponse(body)
        : (protocol === "http/json" ? JsonLogsSerializer : ProtobufLogsSerializer).deserializeResponse(body);
    const partial = response !== null && typeof response === "object" ? (response as { partialSuccess?: unknown }).partialSuccess : undefined;
    if (partial === null || typeof partial !== "object") return { rejected: 0, message: null };
    const fields = partial as { rejectedSpans?: unknown; rejectedLogRecords?: unknown; errorMessage?: unknown };
    // The collector's words end up in the hook log: one line, no control characters, bounded.
    const message = typeof fields.errorMessage === "string" && fields.errorMessage.trim() !== "" ? fields.errorMessage.replace(/[\x00-\x1f\x7f-\x9f]+/g, " ").trim().slice(0, 500) : null;
    return { rejected: count(signal === "traces" ? fields.rejectedSpans : fields.rejectedLogRecords), message };
  } catch {
    return { rejected: 0, message: null };
  }
}
