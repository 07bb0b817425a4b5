/**
 * The on/off switches of the export, shared by the settings (config.ts) and the hook-side trigger (trigger.ts),
 * which must decide without loading the settings' schemas. Values come from the environment and the config file's
 * raw `otel` section; a malformed value counts as absent here (the settings then report it).
 */
type Env = Readonly<Record<string, string | undefined>>;

export const ENDPOINT_VARIABLES = ["OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_EXPORTER_OTLP_LOGS_ENDPOINT"] as const;
const SECTION_ENDPOINTS = ["endpoint", "tracesEndpoint", "logsEndpoint"] as const;

export function envText(env: Env, key: string): string | undefined {
  const value = env[key]?.trim();
  return value ? value : undefined;
}

function sectionValue(section: unknown, key: string): unknown {
  return section !== null && typeof section === "object" && !Array.isArray(section) ? (section as Record<string, unknown>)[key] : undefined;
}

/** Why the export is off whatever else is set (`OTEL_SDK_DISABLED=true`, `"disabled": true`), or null. */
export function disabledBy(env: Env, section: unknown): string | null {
  if (envText(env, "OTEL_SDK_DISABLED")?.toLowerCase() === "true") return "OTEL_SDK_DISABLED=true";
  return sectionValue(section, "disabled") === true ? '"disabled": true in the user config' : null;
}

/** Whether hooks start the exporter: `AIOSON_OTEL_AUTO` (false, 0, off, no), else `"auto"`, else yes. */
export function autoExport(env: Env, section: unknown): boolean {
  const text = envText(env, "AIOSON_OTEL_AUTO");
  if (text !== undefined) return !["false", "0", "off", "no"].includes(text.toLowerCase());
  return sectionValue(section, "auto") !== false;
}

/** Whether an endpoint is named at all (valid or not: the settings say which). */
export function endpointNamed(env: Env, section: unknown): boolean {
  return ENDPOINT_VARIABLES.some((name) => envText(env, name) !== undefined) || SECTION_ENDPOINTS.some((key) => typeof sectionValue(section, key) === "string");
}
