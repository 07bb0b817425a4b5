/**
 * A loopback OTLP/HTTP receiver for the export tests. Protobuf bodies are decoded with the code the official
 * OpenTelemetry JS packages generated from the OTLP `.proto` files (`@opentelemetry/otlp-transformer` 0.214.0's
 * `build/src/generated/root.js`, installed as the dev dependency `otlp-proto-generated`), JSON bodies per the OTLP
 * JSON mapping (hex ids, int64 as strings or numbers, enums as integers). Both end in the same normalised shape, so
 * a test can compare what each protocol delivered. How it answers is scripted per request.
 */
import generated from "otlp-proto-generated/build/src/generated/root.js";

type ProtoType = {
  decode(bytes: Uint8Array): object;
  toObject(message: object, options: { longs: StringConstructor; enums: NumberConstructor; bytes: StringConstructor; defaults?: boolean }): Record<string, unknown>;
  encode(message: object): { finish(): Uint8Array };
  fromObject(value: Record<string, unknown>): object;
};
type Service = { v1: Record<string, ProtoType> };
const proto = (generated as unknown as { opentelemetry: { proto: { collector: { trace: Service; logs: Service } } } }).opentelemetry.proto.collector;

function protoType(signal: Signal, name: string): ProtoType {
  const type = proto[signal === "traces" ? "trace" : "logs"].v1[name];
  if (!type) throw new Error(`no generated type ${signal}.${name}`);
  return type;
}

export type Signal = "traces" | "logs";
export type OtlpValue = string | number | boolean | null | OtlpValue[] | { [key: string]: OtlpValue };
export type Attrs = Record<string, OtlpValue>;

export type ReceivedSpan = {
  traceId: string;
  spanId: string;
  parentSpanId: string;
  name: string;
  kind: number;
  startNs: bigint;
  endNs: bigint;
  attributes: Attrs;
  status: { code: number; message: string };
  resource: Attrs;
  scope: string;
};

export type ReceivedLog = {
  traceId: string;
  spanId: string;
  timeNs: bigint;
  severityNumber: number;
  severityText: string;
  eventName: string;
  body: OtlpValue;
  attributes: Attrs;
  resource: Attrs;
};

export type ReceivedRequest = {
  signal: Signal;
  path: string;
  contentType: string;
  headers: Record<string, string>;
  bytes: number;
  spans: ReceivedSpan[];
  logs: ReceivedLog[];
  receivedAt: number;
};

type Json = Record<string, unknown>;

function list(value: unknown): Json[] {
  return Array.isArray(value) ? (value as Json[]) : [];
}

function anyValue(value: unknown): OtlpValue {
  if (value === null || typeof value !== "object") return null;
  const v = value as Json;
  if ("stringValue" in v) return String(v.stringValue);
  if ("boolValue" in v) return Boolean(v.boolValue);
  if ("intValue" in v) return Number(v.intValue);
  if ("doubleValue" in v) return Number(v.doubleValue);
  if ("arrayValue" in v) return list((v.arrayValue as Json | undefined)?.values).map(anyValue);
  if ("kvlistValue" in v) return attributes((v.kvlistValue as Json | undefined)?.values);
  return null;
}

function attributes(value: unknown): Attrs {
  const out: Attrs = {};
  for (const kv of list(value)) out[String(kv.key)] = anyValue(kv.value);
  return out;
}

/** Protobuf ids arrive as base64 (toObject with bytes: String), JSON ids as hex. */
function idOf(value: unknown, protobuf: boolean): string {
  if (typeof value !== "string" || value === "") return "";
  return protobuf ? Buffer.from(value, "base64").toString("hex") : value.toLowerCase();
}

function nanos(value: unknown): bigint {
  return typeof value === "string" || typeof value === "number" ? BigInt(value) : 0n;
}

function normaliseTraces(request: Json, protobuf: boolean): ReceivedSpan[] {
  const spans: ReceivedSpan[] = [];
  for (const rs of list(request.resourceSpans)) {
    const resource = attributes((rs.resource as Json | undefined)?.attributes);
    for (const ss of list(rs.scopeSpans)) {
      const scope = String((ss.scope as Json | undefined)?.name ?? "");
      for (const s of list(ss.spans)) {
        const status = (s.status as Json | undefined) ?? {};
        spans.push({
          traceId: idOf(s.traceId, protobuf),
          spanId: idOf(s.spanId, protobuf),
          parentSpanId: idOf(s.parentSpanId, protobuf),
          name: String(s.name ?? ""),
          kind: Number(s.kind ?? 0),
          startNs: nanos(s.startTimeUnixNano),
          endNs: nanos(s.endTimeUnixNano),
          attributes: attributes(s.attributes),
          status: { code: Number(status.code ?? 0), message: String(status.message ?? "") },
          resource,
          scope,
        });
      }
    }
  }
  return spans;
}

function normaliseLogs(request: Json, protobuf: boolean): ReceivedLog[] {
  const logs: ReceivedLog[] = [];
  for (const rl of list(request.resourceLogs)) {
    const resource = attributes((rl.resource as Json | undefined)?.attributes);
    for (const sl of list(rl.scopeLogs)) {
      for (const l of list(sl.logRecords)) {
        logs.push({
          traceId: idOf(l.traceId, protobuf),
          spanId: idOf(l.spanId, protobuf),
          timeNs: nanos(l.timeUnixNano),
          severityNumber: Number(l.severityNumber ?? 0),
          severityText: String(l.severityText ?? ""),
          eventName: String(l.eventName ?? ""),
          body: anyValue(l.body),
          attributes: attributes(l.attributes),
          resource,
        });
      }
    }
  }
  return logs;
}

const TO_OBJECT = { longs: String, enums: Number, bytes: String } as const;

/** Decodes one request body the way a collector would. */
export function decodeRequest(signal: Signal, contentType: string, body: Uint8Array): { spans: ReceivedSpan[]; logs: ReceivedLog[] } {
  const protobuf = contentType.startsWith("application/x-protobuf");
  let request: Json;
  if (protobuf) {
    const type = protoType(signal, signal === "traces" ? "ExportTraceServiceRequest" : "ExportLogsServiceRequest");
    request = type.toObject(type.decode(body), TO_OBJECT);
  } else {
    request = JSON.parse(new TextDecoder().decode(body)) as Json;
  }
  return signal === "traces" ? { spans: normaliseTraces(request, protobuf), logs: [] } : { spans: [], logs: normaliseLogs(request, protobuf) };
}

/** A protobuf ExportTraceServiceResponse / ExportLogsServiceResponse with a partial success. */
export function partialSuccessBody(signal: Signal, rejected: number, message: string): Uint8Array {
  const type = protoType(signal, signal === "traces" ? "ExportTraceServiceResponse" : "ExportLogsServiceResponse");
  const partialSuccess = signal === "traces" ? { rejectedSpans: rejected, errorMessage: message } : { rejectedLogRecords: rejected, errorMessage: message };
  return type.encode(type.fromObject({ partialSuccess })).finish();
}

/** What the receiver answers to the n-th request (0-based, all signals counted together): a Response, or undefined for 200. */
export type Script = (request: ReceivedRequest, n: number) => Response | undefined | Promise<Response | undefined>;

export type Receiver = {
  url: string;
  requests: ReceivedRequest[];
  spans(): ReceivedSpan[];
  logs(): ReceivedLog[];
  /** The most requests of one signal that were in progress at the same time. */
  maxInFlight: Record<Signal, number>;
  script: Script | null;
  stop(): void;
};

export function startReceiver(script: Script | null = null, port = 0): Receiver {
  const inFlight: Record<Signal, number> = { traces: 0, logs: 0 };
  const receiver: Receiver = {
    url: "",
    requests: [],
    spans: () => receiver.requests.flatMap((r) => r.spans),
    logs: () => receiver.requests.flatMap((r) => r.logs),
    maxInFlight: { traces: 0, logs: 0 },
    script,
    stop: () => server.stop(true),
  };
  let count = 0;
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port,
    async fetch(req) {
      const path = new URL(req.url).pathname;
      const signal: Signal | null = path === "/v1/traces" ? "traces" : path === "/v1/logs" ? "logs" : null;
      if (req.method !== "POST" || signal === null) return new Response("not found", { status: 404 });
      inFlight[signal] += 1;
      receiver.maxInFlight[signal] = Math.max(receiver.maxInFlight[signal], inFlight[signal]);
      try {
        let body = new Uint8Array(await req.arrayBuffer());
        if (req.headers.get("content-encoding") === "gzip") body = new Uint8Array(Bun.gunzipSync(body));
        const contentType = req.headers.get("content-type") ?? "";
        const headers: Record<string, string> = {};
        req.headers.forEach((value, key) => (headers[key] = value));
        const request: ReceivedRequest = { signal, path, contentType, headers, bytes: body.length, ...decodeRequest(signal, contentType, body), receivedAt: Date.now() };
        const n = count++;
        const answer = receiver.script ? await receiver.script(request, n) : undefined;
        // Only what was answered with success counts as received (a collector drops what it refuses).
        if (!answer || (answer.status >= 200 && answer.status < 300)) receiver.requests.push(request);
        return answer ?? new Response(new Uint8Array(), { status: 200, headers: { "content-type": contentType } });
      } finally {
        inFlight[signal] -= 1;
      }
    },
  });
  receiver.url = `http://127.0.0.1:${server.port}`;
  return receiver;
}

/** Spans by span id and log records by `log.record.uid`: what a backend keeps once resends are deduplicated. */
export function uniqueSpans(spans: readonly ReceivedSpan[]): Map<string, ReceivedSpan> {
  return new Map(spans.map((span) => [span.spanId, span]));
}

export function uniqueLogs(logs: readonly ReceivedLog[]): Map<string, ReceivedLog> {
  return new Map(logs.map((log) => [String(log.attributes["log.record.uid"]), log]));
}

/** A receiver that holds every request until `open()`; `inFlight()` counts the requests it holds. */
export function gatedReceiver(): { receiver: Receiver; open: () => void; inFlight: () => number } {
  let release: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let pending = 0;
  const receiver = startReceiver(async () => {
    pending += 1;
    await gate;
    pending -= 1;
    return undefined;
  });
  return { receiver, open: () => release(), inFlight: () => pending };
}
