/** Spec 9.13: the default hook install run by `init` and `update` — never fails the surrounding command. */
import { CommandError } from "../core/output.ts";
import { installWorkspacePaths, runInstall, type InstallRequest, type InstallResult, type Report } from "./install.ts";
import { isToolName } from "./types.ts";
import type { Env } from "./paths.ts";
import { unsafeProjectPath } from "./write.ts";

export type HooksInstallOutcome = InstallResult | { ok: false; error: string } | null;

export type ProjectHooksRequest = { dir: string; cwd: string; tool: string | undefined; hooks: boolean; dryRun: boolean; env: Env };

type Installer = (request: InstallRequest) => Report<InstallResult>;

/** `--tool` passes through only when it names one hook-capable tool; anything else (prompt-only tools, lists) detects. */
export function hookToolFor(tool: string | undefined): string {
  const name = tool?.trim().toLowerCase() ?? "";
  return isToolName(name) ? name : "all";
}

/**
 * `init` and `update` check every project path they would write — their own (`own`) and the hook files the install
 * would write — before writing anything, and refuse the whole command when one leaves the project or goes through
 * a symlink (a hostile repository's `.aioson` or `.agents` pointing into HOME).
 */
export function assertProjectWritable(request: Pick<ProjectHooksRequest, "dir" | "tool" | "hooks" | "env">, own: readonly string[]): void {
  const hookPaths = request.hooks ? installWorkspacePaths({ dir: request.dir, tool: hookToolFor(request.tool), env: request.env }) : [];
  const unsafe = unsafeProjectPath(request.dir, [...own, ...hookPaths]);
  if (unsafe) throw new CommandError(`${unsafe}; nothing was changed (aioson writes a project's files only inside the project, never through a symlink)`, { hint: "Look at where it points; replace it with a plain file or folder (or remove it), then run the command again." });
}

const REASONS: Record<string, string> = { no_tools_detected: "no supported AI tool detected on this machine" };

export function installProjectHooks(request: ProjectHooksRequest, installer: Installer = runInstall): { lines: string[]; hooksInstall: HooksInstallOutcome } {
  if (!request.hooks) return { lines: ["Hooks skipped (--no-hooks). Install later with: aioson hooks:install"], hooksInstall: null };
  const lines = ["", "Installing AIOSON hooks (context:guard + runtime telemetry) — opt out with --no-hooks:"];
  try {
    const report = installer({ dir: request.dir, cwd: request.cwd, tool: hookToolFor(request.tool), explicitAgent: null, guard: true, dryRun: request.dryRun, env: request.env });
    lines.push(...report.lines);
    const problems = report.result.results.flatMap((r) => (r.error ? [`${r.tool}: ${r.error}`] : r.skipped && r.skipped !== "not-ours" ? [`${r.tool}: ${r.skipped}`] : []));
    if (!report.result.ok) problems.push(REASONS[report.result.reason ?? ""] ?? report.result.reason ?? "unknown");
    if (problems.length > 0) lines.push(`Hooks install failed (non-blocking): ${problems.join("; ")}. Install later with: aioson hooks:install`);
    return { lines, hooksInstall: report.result };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    lines.push(`Hooks install failed (non-blocking): ${message}. Install later with: aioson hooks:install`);
    return { lines, hooksInstall: { ok: false, error: message } };
  }
}
