/**
 * The automatic export (docs/team-export.md): a hook that ends a turn or a session starts one detached
 * `aioson otel:export --auto` and returns at once; it never waits for it. At most one export per project runs at a
 * time: a started exporter that finds the store's lease held exits right away, and the one holding it looks again
 * for new events before it ends.
 *
 * This module is on the hook path, so it decides with the switches alone (switches.ts) and leaves validating the
 * settings to the exporter, which reports a problem in the hook log: with nothing configured a hook pays a few
 * environment lookups and one `stat` of the user config file, with a destination one bounded read of that file and
 * of the exporter's wait file (wait-file.ts: nothing to start while an export works or every destination backs off).
 */
import { existsSync } from "node:fs";
import { startDetached } from "../core/detached.ts";
import { logHookProblem } from "../core/hook-log.ts";
import { readUserConfig, userConfigPath } from "../core/user-config.ts";
import { autoExport, disabledBy, endpointNamed } from "./switches.ts";
import { exportWaiting } from "./wait-file.ts";

type Env = Readonly<Record<string, string | undefined>>;

function exportWanted(env: Env): boolean {
  if (disabledBy(env, undefined)) return false;
  const read = existsSync(userConfigPath(env)) ? readUserConfig(env) : null;
  const section = read?.kind === "ok" ? read.config.otel : undefined;
  if (disabledBy(env, section) || !autoExport(env, section)) return false;
  // A config file that cannot be read is left to the exporter, which says why in the hook log.
  return endpointNamed(env, section) || read?.kind === "invalid";
}

export function startAutoExport(root: string, env: Env = process.env): void {
  try {
    if (!exportWanted(env) || exportWaiting(root, Date.now())) return;
  } catch (error) {
    logHookProblem(root, "otel:export", error);
    return;
  }
  startDetached(root, ["otel:export", root, "--auto"], "otel:export");
}
