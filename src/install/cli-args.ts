/** Argument definitions and helpers shared by the install-family commands. */
import { printJson } from "../core/output.ts";
import { printHuman } from "../human/output.ts";

export const dirArg = { type: "positional", required: false, description: "Project directory (default: cwd)" } as const;
export const toolArg = { type: "string", description: "claude|codex|antigravity|opencode|copilot|all or a comma list" } as const;
export const dryRunArg = { type: "boolean", alias: "d", default: false, description: "Print what would change; touch nothing" } as const;
export const jsonArg = { type: "boolean", alias: "j", default: false, description: "Print one JSON document" } as const;

/** The options `init` and `update` share: both end by installing the project's hooks. */
export function projectHooksArgs(hooksDescription: string) {
  return {
    dir: dirArg,
    hooks: { type: "boolean", default: true, description: hooksDescription },
    tool: toolArg,
    "dry-run": dryRunArg,
    json: jsonArg,
  } as const;
}

export function stringOrUndefined(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

/** Prints human lines or the JSON result, and sets the exit status of spec 0.3. */
export function finish(report: { lines: readonly string[]; result: { ok: boolean; exitCode?: number } }, json: boolean): void {
  if (json) printJson(report.result);
  else printHuman(report.lines);
  process.exitCode = report.result.exitCode ?? (report.result.ok ? 0 : 1);
}
