/**
 * Opening the dashboard in the user's browser, when there is a desktop to open it on: macOS and Windows always have
 * one; elsewhere only a graphical session does (DISPLAY or WAYLAND_DISPLAY). The opener comes from the user's PATH
 * and runs in their home folder, never in a project.
 */
import { homedir } from "node:os";
import { findProgram } from "../core/programs.ts";

type Env = Readonly<Record<string, string | undefined>>;

export function opener(url: string, platform: NodeJS.Platform = process.platform, env: Env = process.env): string[] | null {
  if (platform === "darwin") return ["open", url];
  // rundll32 hands the URL to the default browser without a shell, so nothing in it is interpreted.
  if (platform === "win32") return ["rundll32", "url.dll,FileProtocolHandler", url];
  if (!env.DISPLAY && !env.WAYLAND_DISPLAY) return null;
  return ["xdg-open", url];
}

/** Best effort: a missing opener or a failing one leaves the printed URL to the user. */
export function openBrowser(url: string): boolean {
  const command = opener(url);
  if (!command) return false;
  // PATH's absolute entries only: a relative one would name a folder of the project the dashboard was started in.
  const program = findProgram(command[0] as string, process.env);
  if (!program) return false;
  try {
    const child = Bun.spawn([program, ...command.slice(1)], { cwd: homedir(), stdin: "ignore", stdout: "ignore", stderr: "ignore" });
    child.unref();
    return true;
  } catch {
    return false;
  }
}
