import { describe, expect, test } from "bun:test";
import { printableUrl, resolveOtelSettings, type OtelConfig, type OtelSettings } from "../../src/otel/config.ts";
import { retryAfterMs } from "../../src/otel/transport.ts";

function config(settings: OtelSettings): OtelConfig {
  if (settings.kind !== "ok") throw new Error(`expected ok, got ${JSON.stringify(settings)}`);
  return settings.config;
}

function problems(settings: OtelSettings): string[] {
  if (settings.kind !== "invalid") throw new Error(`expected invalid, got ${settings.kind}`);
  return settings.problems;
}

describe("where the export goes (OTLP exporter environment variables)", () => {
  test("nothing set: not configured, with the defaults", () => {
    const settings = resolveOtelSettings({}, undefined);
    expect(settings.kind).toBe("unconfigured");
    if (settings.kind === "unconfigured") expect(settings.config).toMatchObject({ traces: null, logs: null, serviceName: "aioson", content: "off", auto: true });
  });

  test("the base endpoint gets v1/<signal> appended; a signal endpoint is used as is", () => {
    const c = config(resolveOtelSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318/otlp/", OTEL_EXPORTER_OTLP_LOGS_ENDPOINT: "https://logs.example/ingest" }, undefined));
    expect(c.traces).toEqual({ url: "http://collector:4318/otlp/v1/traces", headers: {}, protocol: "http/protobuf", timeoutMs: 10_000, compression: "none", from: "env" });
    expect(c.logs?.url).toBe("https://logs.example/ingest");
  });

  test("protocol, timeout (capped at 60 s), compression and headers per signal, the signal's own value first", () => {
    const c = config(
      resolveOtelSettings(
        {
          OTEL_EXPORTER_OTLP_ENDPOINT: "http://c:4318",
          OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
          OTEL_EXPORTER_OTLP_LOGS_PROTOCOL: "http/protobuf",
          OTEL_EXPORTER_OTLP_TIMEOUT: "900000",
          OTEL_EXPORTER_OTLP_COMPRESSION: "gzip",
          OTEL_EXPORTER_OTLP_HEADERS: "X-Team=pay,authorization=Bearer%20abc",
          OTEL_EXPORTER_OTLP_TRACES_HEADERS: "x-team=traces",
        },
        undefined,
      ),
    );
    expect(c.traces).toMatchObject({ protocol: "http/json", timeoutMs: 60_000, compression: "gzip", headers: { "x-team": "traces", authorization: "Bearer abc" } });
    expect(c.logs).toMatchObject({ protocol: "http/protobuf", headers: { "x-team": "pay", authorization: "Bearer abc" } });
  });

  test("OTEL_<SIGNAL>_EXPORTER=none, or false in the config file, turns a signal off", () => {
    expect(config(resolveOtelSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c", OTEL_TRACES_EXPORTER: "none" }, undefined)).traces).toBeNull();
    expect(config(resolveOtelSettings({}, { endpoint: "http://c", logs: false })).logs).toBeNull();
    expect(resolveOtelSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c", OTEL_TRACES_EXPORTER: "none", OTEL_LOGS_EXPORTER: "none" }, undefined).kind).toBe("unconfigured");
  });

  test("OTEL_SDK_DISABLED=true wins over everything", () => {
    expect(resolveOtelSettings({ OTEL_SDK_DISABLED: "TRUE", OTEL_EXPORTER_OTLP_ENDPOINT: "http://c" }, { endpoint: "http://d" }).kind).toBe("disabled");
    expect(resolveOtelSettings({}, { endpoint: "http://d", disabled: true }).kind).toBe("disabled");
    expect(resolveOtelSettings({ OTEL_SDK_DISABLED: "false", OTEL_EXPORTER_OTLP_ENDPOINT: "http://c" }, undefined).kind).toBe("ok");
  });
});

describe("the user config file and the environment together", () => {
  test("the same settings in the config file", () => {
    const c = config(
      resolveOtelSettings({}, { endpoint: "https://otel.example:4318", headers: { "x-honeycomb-team": "k" }, protocol: "http/json", timeoutMs: 2000, serviceName: "agents", resourceAttributes: { "deployment.environment": "ci" }, content: "paths", auto: false }),
    );
    expect(c.traces).toEqual({ url: "https://otel.example:4318/v1/traces", headers: { "x-honeycomb-team": "k" }, protocol: "http/json", timeoutMs: 2000, compression: "none", from: "user-config" });
    expect(c).toMatchObject({ serviceName: "agents", resourceAttributes: { "deployment.environment": "ci" }, content: "paths", auto: false });
  });

  test("an endpoint gets the headers of its own source only, so a key never follows an endpoint from elsewhere", () => {
    const envEndpoint = config(resolveOtelSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://from-env" }, { endpoint: "http://from-file", headers: "x-api-key=secret" }));
    expect(envEndpoint.traces).toMatchObject({ url: "http://from-env/v1/traces", headers: {}, from: "env" });
    const fileEndpoint = config(resolveOtelSettings({ OTEL_EXPORTER_OTLP_HEADERS: "x-api-key=env-secret" }, { endpoint: "http://from-file", headers: { "x-api-key": "file-key" } }));
    expect(fileEndpoint.logs).toMatchObject({ url: "http://from-file/v1/logs", headers: { "x-api-key": "file-key" }, from: "user-config" });
  });

  test("the environment wins for the other settings; OTEL_SERVICE_NAME over service.name in the attributes", () => {
    const c = config(resolveOtelSettings({ AIOSON_OTEL_CONTENT: "full", AIOSON_OTEL_AUTO: "0", OTEL_RESOURCE_ATTRIBUTES: "service.name=ignored,team=a%2Cb" }, { endpoint: "http://c", content: "off", serviceName: "file-name" }));
    expect(c).toMatchObject({ content: "full", auto: false, serviceName: "file-name", resourceAttributes: { "service.name": "ignored", team: "a,b" } });
    expect(config(resolveOtelSettings({ OTEL_SERVICE_NAME: "env-name" }, { endpoint: "http://c", serviceName: "file-name" })).serviceName).toBe("env-name");
    expect(config(resolveOtelSettings({ OTEL_RESOURCE_ATTRIBUTES: "service.name=from-attrs" }, { endpoint: "http://c" })).serviceName).toBe("from-attrs");
  });
});

describe("invalid settings are reported, never guessed", () => {
  const cases: ReadonlyArray<readonly [Record<string, string>, unknown, string]> = [
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: "ftp://c" }, undefined, "must be an http:// or https:// URL"],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: "http://user:pw@c" }, undefined, "must not carry credentials"],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: "not a url" }, undefined, "is not a URL"],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c", OTEL_EXPORTER_OTLP_PROTOCOL: "grpc" }, undefined, "grpc is not supported"],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c", OTEL_EXPORTER_OTLP_HEADERS: "bad header=x" }, undefined, "is not a header name"],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c", OTEL_EXPORTER_OTLP_HEADERS: "novalue" }, undefined, "is not key=value"],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c", OTEL_EXPORTER_OTLP_TIMEOUT: "soon" }, undefined, "is not a positive number"],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c", AIOSON_OTEL_CONTENT: "everything" }, undefined, "is not off, paths or full"],
    [{ OTEL_EXPORTER_OTLP_ENDPOINT: "http://c", OTEL_TRACES_EXPORTER: "zipkin" }, undefined, "only otlp"],
    [{}, { endpoint: "http://c", endpiont: "typo" }, "otel.endpiont"],
    [{}, { endpoint: 42 }, "otel.endpoint"],
    [{}, { endpoint: "http://c", headers: { "x-a": "line\nbreak" } }, "is not a single line"],
  ];
  test.each(cases.map(([env, section, message]) => [message, env, section] as const))("%s", (message, env, section) => {
    expect(problems(resolveOtelSettings(env, section)).join("\n")).toContain(message);
  });
});

test("printable endpoints drop the query (which can carry a key)", () => {
  expect(printableUrl("https://h:4318/v1/traces?api_key=x#f")).toBe("https://h:4318/v1/traces");
});

test("Retry-After: seconds or an HTTP date", () => {
  const now = Date.parse("2026-01-01T00:00:00Z");
  expect(retryAfterMs("120", now)).toBe(120_000);
  expect(retryAfterMs("Thu, 01 Jan 2026 00:00:30 GMT", now)).toBe(30_000);
  expect(retryAfterMs("Wed, 31 Dec 2025 00:00:00 GMT", now)).toBe(0);
  expect(retryAfterMs("soon", now)).toBeNull();
  expect(retryAfterMs(null, now)).toBeNull();
});
