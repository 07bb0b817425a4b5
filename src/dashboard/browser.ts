/**
 * Opening the dashboard in the user's browser, when there is a desktop to open it on: macOS and Windows always have
 * one; elsewhere only a graphical session does (DISPLAY or WAYLAND_DISPLAY). The opener is the user's: found on
 * PATH outside the projects the dashboard runs for, run with that PATH and in the home folder, never in a project.
 */
import { homedir } from "node:os";
import { launchable } from "../core/programs.ts";

type Env = Readonly<Record<string, string | undefined>>;

export function opener(url: string, platform: NodeJS.Platform = process.platform, env: Env = process.env): string[] | null {
  if (platform === "darwin") return ["open", url];
  // rundll32 hands the URL to the default browser without a shell, so nothing in it is interpreted.
  if (platform === "win32") return ["rundll32", "url.dll,FileProtocolHandler", url];
  if (!env.DISPLAY && !env.WAYLAND_DISPLAY) return null;
  return ["xdg-open", url];
}

/**
 * The projects the dashboard runs for: the one it was started on, and the current folder's (its repository and
 * AIOSON project above it: src/core/programs.ts) — the folders a PATH a project set up (an npm script, direnv, a
 * venv) would name.
 */
function dashboardDirs(root: string | null): string[] {
  return root === null ? [process.cwd()] : [root, process.cwd()];
}

/** Best effort: a missing opener or a failing one leaves the printed URL to the user. */
export function openBrowser(url: string, root: string | null): boolean {
  const command = opener(url);
  if (!command) return false;
  // The token URL goes to the opener: never one a project ships (it would hand the token to the repository).
  const program = launchable(command[0] as string, process.env, dashboardDirs(root));
  if (!program) return false;
  try {
    const child = Bun.spawn([program.path, ...command.slice(1)], { cwd: homedir(), env: program.env, stdin: "ignore", stdout: "ignore", stderr: "ignore" });
    child.unref();
    return true;
  } catch {
    return false;
  }
}
