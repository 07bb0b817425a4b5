/**
 * Where the OpenTelemetry export sends, and what (docs/team-export.md). Two sources only, both the user's:
 * the standard `OTEL_*` environment variables and the `otel` section of the user-level aioson config file
 * (`src/core/user-config.ts`). Nothing inside a project is ever read here: a cloned repository cannot turn the
 * export on, point it anywhere or add a header.
 *
 * An endpoint and its headers always come as a pair from the same source: an endpoint taken from the environment
 * is sent the environment's headers only, one from the config file the file's headers only, so a header the user
 * put in one place (an API key) can never be sent to an endpoint that came from the other.
 */
import * as v from "valibot";
import { readUserConfig } from "../core/user-config.ts";
import { autoExport, disabledBy, envText } from "./switches.ts";

type Env = Readonly<Record<string, string | undefined>>;

export type Signal = "traces" | "logs";
export const SIGNALS: readonly Signal[] = ["traces", "logs"];

export type Protocol = "http/protobuf" | "http/json";
/** What leaves the machine besides metadata: `paths` adds file paths, `full` also command lines, messages and errors. */
export type ContentLevel = "off" | "paths" | "full";
export type Compression = "gzip" | "none";

export type SignalTarget = {
  url: string;
  headers: Readonly<Record<string, string>>;
  protocol: Protocol;
  timeoutMs: number;
  compression: Compression;
  /** Where the endpoint (and so the headers) came from. */
  from: "env" | "user-config";
};

export type OtelConfig = {
  traces: SignalTarget | null;
  logs: SignalTarget | null;
  serviceName: string;
  resourceAttributes: Readonly<Record<string, string>>;
  content: ContentLevel;
  /** Whether Stop/SessionEnd hooks start the exporter (the command itself always works). */
  auto: boolean;
};

export type OtelSettings =
  | { kind: "disabled"; reason: string }
  | { kind: "unconfigured"; config: OtelConfig }
  | { kind: "invalid"; problems: string[] }
  | { kind: "ok"; config: OtelConfig };

export const DEFAULT_TIMEOUT_MS = 10_000;
/** A slow collector holds one request at most this long, whatever the settings say. */
export const MAX_TIMEOUT_MS = 60_000;
/** The longest wait between two attempts inside one export (a longer Retry-After ends the export instead). */
export const MAX_RETRY_WAIT_MS = 30_000;
const DEFAULT_SERVICE_NAME = "aioson";
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** A header or resource value is a short label or key; anything longer is a mistake, not something to send. */
const VALUE_MAX = 4_096;

function sectionSchema() {
  const stringMap = v.union([v.string(), v.record(v.string(), v.string())]);
  return v.strictObject({
    disabled: v.optional(v.boolean()),
    endpoint: v.optional(v.string()),
    tracesEndpoint: v.optional(v.string()),
    logsEndpoint: v.optional(v.string()),
    headers: v.optional(stringMap),
    tracesHeaders: v.optional(stringMap),
    logsHeaders: v.optional(stringMap),
    protocol: v.optional(v.string()),
    tracesProtocol: v.optional(v.string()),
    logsProtocol: v.optional(v.string()),
    timeoutMs: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1))),
    compression: v.optional(v.string()),
    traces: v.optional(v.boolean()),
    logs: v.optional(v.boolean()),
    serviceName: v.optional(v.string()),
    resourceAttributes: v.optional(stringMap),
    content: v.optional(v.string()),
    auto: v.optional(v.boolean()),
  });
}

type Section = v.InferOutput<ReturnType<typeof sectionSchema>>;

function envSignal(signal: Signal): string {
  return signal.toUpperCase();
}

/** The OTel `key=value,key2=value2` list (values percent-decoded), or a JSON object from the config file. */
function parsePairs(value: string | Readonly<Record<string, string>> | undefined, what: string, problems: string[]): Record<string, string> {
  if (value === undefined) return {};
  const out: Record<string, string> = {};
  const entries: Array<[string, string]> = [];
  if (typeof value === "string") {
    for (const item of value.split(",")) {
      if (item.trim() === "") continue;
      const at = item.indexOf("=");
      if (at <= 0) {
        problems.push(`${what}: "${item.trim().slice(0, 40)}" is not key=value`);
        continue;
      }
      entries.push([item.slice(0, at).trim(), decode(item.slice(at + 1).trim())]);
    }
  } else {
    entries.push(...Object.entries(value));
  }
  for (const [key, item] of entries) {
    if (!key || key.length > 256 || /[\0-\x1f\x7f]/.test(key)) problems.push(`${what}: invalid key`);
    else if (item.length > VALUE_MAX || /[\0\r\n]/.test(item)) problems.push(`${what}: the value of ${key} is not a single line of at most ${VALUE_MAX} characters`);
    else out[key] = item;
  }
  return out;
}

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function headerPairs(value: string | Readonly<Record<string, string>> | undefined, what: string, problems: string[]): Record<string, string> {
  const pairs = parsePairs(value, what, problems);
  const out: Record<string, string> = {};
  for (const [name, item] of Object.entries(pairs)) {
    if (HEADER_NAME.test(name)) out[name.toLowerCase()] = item;
    else problems.push(`${what}: "${name.slice(0, 40)}" is not a header name`);
  }
  return out;
}

/** An http(s) URL without credentials in it (they belong in headers, where they are never printed). */
function endpointUrl(text: string, what: string, problems: string[]): URL | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    problems.push(`${what} is not a URL`);
    return null;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") problems.push(`${what} must be an http:// or https:// URL`);
  else if (url.username || url.password) problems.push(`${what} must not carry credentials: put them in the headers`);
  else return url;
  return null;
}

/** Spec of the OTLP exporter: the base endpoint gets `v1/<signal>` appended; a signal endpoint is used as is. */
function signalUrl(base: URL | null, own: URL | null, signal: Signal): string | null {
  if (own) return own.href;
  if (!base) return null;
  const url = new URL(base.href);
  url.pathname = `${url.pathname.replace(/\/+$/, "")}/v1/${signal}`;
  return url.href;
}

function protocolOf(text: string | undefined, what: string, problems: string[]): Protocol {
  if (text === undefined || text === "http/protobuf") return "http/protobuf";
  if (text === "http/json") return "http/json";
  problems.push(`${what}: ${text.slice(0, 40)} is not supported (http/protobuf or http/json)`);
  return "http/protobuf";
}

function compressionOf(text: string | undefined, problems: string[]): Compression {
  if (text === undefined || text === "none") return "none";
  if (text === "gzip") return "gzip";
  problems.push(`compression: ${text.slice(0, 40)} is not supported (gzip or none)`);
  return "none";
}

function contentOf(text: string | undefined, problems: string[]): ContentLevel {
  const value = text?.toLowerCase();
  if (value === undefined || value === "off" || value === "false" || value === "0") return "off";
  if (value === "paths") return "paths";
  if (value === "full" || value === "true" || value === "1") return "full";
  problems.push(`content: ${value.slice(0, 40)} is not off, paths or full`);
  return "off";
}

function timeoutOf(text: string | number | undefined, problems: string[]): number {
  if (text === undefined) return DEFAULT_TIMEOUT_MS;
  const value = typeof text === "number" ? text : Number(text);
  if (!Number.isInteger(value) || value <= 0) {
    problems.push(`timeout: ${String(text).slice(0, 40)} is not a positive number of milliseconds`);
    return DEFAULT_TIMEOUT_MS;
  }
  return Math.min(value, MAX_TIMEOUT_MS);
}

/** One source's endpoint of a signal: its own endpoint as given, else the base endpoint plus `v1/<signal>`. */
type EndpointSource = { own: string | undefined; ownName: string; base: string | undefined; baseName: string; headers: ReadonlyArray<string | Readonly<Record<string, string>> | undefined> };

function fileText(value: string | undefined): string | undefined {
  const text = value?.trim();
  return text ? text : undefined;
}

function endpointSources(env: Env, section: Section, signal: Signal): { env: EndpointSource; file: EndpointSource } {
  const key = envSignal(signal);
  return {
    env: {
      own: envText(env, `OTEL_EXPORTER_OTLP_${key}_ENDPOINT`),
      ownName: `OTEL_EXPORTER_OTLP_${key}_ENDPOINT`,
      base: envText(env, "OTEL_EXPORTER_OTLP_ENDPOINT"),
      baseName: "OTEL_EXPORTER_OTLP_ENDPOINT",
      headers: [envText(env, "OTEL_EXPORTER_OTLP_HEADERS"), envText(env, `OTEL_EXPORTER_OTLP_${key}_HEADERS`)],
    },
    file: {
      own: fileText(signal === "traces" ? section.tracesEndpoint : section.logsEndpoint),
      ownName: `otel.${signal}Endpoint`,
      base: fileText(section.endpoint),
      baseName: "otel.endpoint",
      headers: [section.headers, signal === "traces" ? section.tracesHeaders : section.logsHeaders],
    },
  };
}

function resolveTarget(env: Env, section: Section, signal: Signal, problems: string[]): SignalTarget | null {
  const key = envSignal(signal);
  const exporter = envText(env, `OTEL_${key}_EXPORTER`)?.toLowerCase();
  if (exporter === "none" || (exporter === undefined && section[signal] === false)) return null;
  if (exporter !== undefined && exporter !== "otlp") problems.push(`OTEL_${key}_EXPORTER: only otlp (or none) is supported`);
  const sources = endpointSources(env, section, signal);
  const from = sources.env.own ?? sources.env.base ? "env" : sources.file.own ?? sources.file.base ? "user-config" : null;
  if (from === null) return null;
  const source = from === "env" ? sources.env : sources.file;
  const url =
    source.own !== undefined
      ? signalUrl(null, endpointUrl(source.own, source.ownName, problems), signal)
      : signalUrl(endpointUrl(source.base as string, source.baseName, problems), null, signal);
  if (url === null) return null;
  const headers: Record<string, string> = {};
  for (const value of source.headers) Object.assign(headers, headerPairs(value, `headers of ${signal} (${from})`, problems));
  const protocol = protocolOf(
    envText(env, `OTEL_EXPORTER_OTLP_${key}_PROTOCOL`) ?? envText(env, "OTEL_EXPORTER_OTLP_PROTOCOL") ?? (signal === "traces" ? section.tracesProtocol : section.logsProtocol) ?? section.protocol,
    `protocol of ${signal}`,
    problems,
  );
  const timeoutMs = timeoutOf(envText(env, `OTEL_EXPORTER_OTLP_${key}_TIMEOUT`) ?? envText(env, "OTEL_EXPORTER_OTLP_TIMEOUT") ?? section.timeoutMs, problems);
  const compression = compressionOf(envText(env, `OTEL_EXPORTER_OTLP_${key}_COMPRESSION`) ?? envText(env, "OTEL_EXPORTER_OTLP_COMPRESSION") ?? section.compression, problems);
  return { url, headers, protocol, timeoutMs, compression, from };
}

/** The settings from an environment and the config file's `otel` section (pure: both are passed in). */
export function resolveOtelSettings(env: Env, rawSection: unknown): OtelSettings {
  const disabled = disabledBy(env, rawSection);
  if (disabled) return { kind: "disabled", reason: disabled };
  let section: Section = {};
  if (rawSection !== undefined) {
    const parsed = v.safeParse(sectionSchema(), rawSection);
    if (!parsed.success) {
      const issue = parsed.issues[0];
      return { kind: "invalid", problems: [`otel${issue ? `.${v.getDotPath(issue) ?? ""}` : ""}: ${issue?.message ?? "invalid"}`] };
    }
    section = parsed.output;
  }
  const problems: string[] = [];
  const resourceAttributes = {
    ...parsePairs(section.resourceAttributes, "otel.resourceAttributes", problems),
    ...parsePairs(envText(env, "OTEL_RESOURCE_ATTRIBUTES"), "OTEL_RESOURCE_ATTRIBUTES", problems),
  };
  const config: OtelConfig = {
    traces: resolveTarget(env, section, "traces", problems),
    logs: resolveTarget(env, section, "logs", problems),
    serviceName: envText(env, "OTEL_SERVICE_NAME") ?? section.serviceName?.trim() ?? resourceAttributes["service.name"] ?? DEFAULT_SERVICE_NAME,
    resourceAttributes,
    content: contentOf(envText(env, "AIOSON_OTEL_CONTENT") ?? section.content, problems),
    auto: autoExport(env, section),
  };
  // Both signals share most settings: a shared mistake is said once.
  if (problems.length > 0) return { kind: "invalid", problems: [...new Set(problems)] };
  if (!config.traces && !config.logs) return { kind: "unconfigured", config };
  return { kind: "ok", config };
}

/** The settings of this process: its environment and the user config file (read once, bounded). */
export function loadOtelSettings(env: Env = process.env): OtelSettings {
  const disabled = disabledBy(env, undefined);
  if (disabled) return { kind: "disabled", reason: disabled };
  const read = readUserConfig(env);
  if (read.kind === "invalid") return { kind: "invalid", problems: [`${read.path}: ${read.reason}`] };
  return resolveOtelSettings(env, read.kind === "ok" ? read.config.otel : undefined);
}

/** An endpoint as it may be printed: scheme, host and path only (a query can carry a key). */
export function printableUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  } catch {
    return "(invalid URL)";
  }
}
