/**
 * The environment a measured or tested aioson call inherits: the caller's, minus every variable aioson or a harness
 * reacts to. The developer's AIOSON_* settings and the kill switch (`AIOSON=0` would make every hook a no-op), the
 * colour switches (`FORCE_COLOR` colours plain output; `CI`, which a CI runner sets, and `NO_COLOR` take the colour
 * out of what a terminal shows), an OTLP endpoint (Stop would start an exporter), a harness's home or trust switch,
 * a desktop for the dashboard's browser: the machine running the tests or the bench must not change what they see.
 * A caller that wants one of them sets it itself.
 */
const DROPPED_PREFIXES = ["AIOSON_", "CLAUDE_", "OTEL_", "GEMINI_", "COPILOT_", "GITHUB_COPILOT_"];
const DROPPED = ["AIOSON", "FORCE_COLOR", "NO_COLOR", "CI", "CODEX_HOME", "XDG_CONFIG_HOME", "DISPLAY", "WAYLAND_DISPLAY"];

export function inheritedEnv(from: NodeJS.ProcessEnv = process.env): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(from)) {
    if (value !== undefined && !DROPPED_PREFIXES.some((prefix) => key.startsWith(prefix)) && !DROPPED.includes(key)) env[key] = value;
  }
  return env;
}
