/**
 * Background work a hook leaves behind (the OpenTelemetry export, the automatic prune): one detached aioson process
 * the hook starts and never waits for (the process itself then steps aside: core/priority.ts).
 */
import { logHookProblem } from "./hook-log.ts";

/** Starts `aioson <args>` in `root`, detached and silent; a failure is logged under `command`, never thrown. */
export function startDetached(root: string, args: readonly string[], command: string): void {
  try {
    const child = Bun.spawn({
      cmd: [process.execPath, ...args],
      cwd: root,
      stdio: ["ignore", "ignore", "ignore"],
      // Its own session (setsid), so a harness that kills the hook's process group once the hook returns spares it.
      detached: true,
      windowsHide: true,
    });
    child.unref();
  } catch (error) {
    logHookProblem(root, command, error);
  }
}
