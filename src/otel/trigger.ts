/**
 * The automatic export (README "Team dashboards"): a hook that ends a turn or a session starts one detached
 * `aioson otel:export --auto` and returns at once; it never waits for it. At most one export per project runs at a
 * time: a started exporter that finds the store's lease held exits right away, and the one holding it looks again
 * for new events before it ends.
 *
 * This module is on the hook path, so it stays small: with nothing configured a hook pays a few environment
 * lookups and one `stat` of the user config file; the settings (valibot) are loaded only when something may be
 * configured.
 */
import { existsSync } from "node:fs";
import { logHookProblem } from "../core/hook-log.ts";
import { userConfigPath } from "../core/user-config.ts";

const COMMAND = "otel:export";
const ENDPOINT_VARIABLES = ["OTEL_EXPORTER_OTLP_ENDPOINT", "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", "OTEL_EXPORTER_OTLP_LOGS_ENDPOINT"] as const;

type Env = Readonly<Record<string, string | undefined>>;

/** False when no export can be configured: disabled, no endpoint variable and no user config file. */
function mayBeConfigured(env: Env): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === "true") return false;
  return ENDPOINT_VARIABLES.some((name) => env[name]?.trim()) || existsSync(userConfigPath(env));
}

export async function startAutoExport(root: string, env: Env = process.env): Promise<void> {
  try {
    if (!mayBeConfigured(env)) return;
    const { loadOtelSettings } = await import("./config.ts");
    const settings = loadOtelSettings(env);
    if (settings.kind === "invalid") {
      logHookProblem(root, COMMAND, `not started: ${settings.problems.join("; ")}`);
      return;
    }
    if (settings.kind !== "ok" || !settings.config.auto) return;
    const child = Bun.spawn({
      cmd: [process.execPath, "otel:export", root, "--auto"],
      cwd: root,
      stdio: ["ignore", "ignore", "ignore"],
      // Its own session (setsid), so a harness that kills the hook's process group once the hook returns spares it.
      detached: true,
      windowsHide: true,
    });
    child.unref();
  } catch (error) {
    logHookProblem(root, COMMAND, error);
  }
}
