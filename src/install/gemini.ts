/**
 * Gemini CLI entries (`~/.gemini/settings.json` → `hooks`; real-harnesses §4): matcher groups of `{type, name,
 * timeout (milliseconds), command, env}` handlers, one command string for every OS (src/install/commands.ts
 * `geminiCommand`), stable names (`hooksConfig.disabled` lists names).
 *
 * Handlers and why:
 * - AfterTool (the tools hooks:emit records) → hooks:emit; BeforeAgent → hooks:emit (agent activation): both also
 *   hand over the checkpoint owed after a compression, since their `additionalContext` reaches the model;
 * - AfterAgent (end of the turn, `prompt_response` = the last message) → hooks:emit --then=agent:done;
 * - BeforeModel → hooks:emit: a compression is only visible there (the request opens with the `<state_snapshot>`);
 *   PreCompress is not used, it fires before essentially every model call whether or not a compression follows;
 * - SessionEnd → hooks:emit --event=SessionEnd;
 * - context:guard on AfterTool (write_file|replace): BeforeTool never reads `additionalContext`, AfterTool appends it
 *   to the tool result the model reads next — the rule arrives when Claude Code's PreToolUse context does too (after
 *   the write, before the next step). The guard takes the file's earlier text from the tool's result.
 */
import { GEMINI_HANDLER_ENV, geminiCommand, type CommandKind } from "./commands.ts";
import { HANDLER_TIMEOUT_SECONDS } from "./timeouts.ts";
import type { GenerateOptions, HandlerSpec } from "./types.ts";

export const GEMINI_LABEL = "Gemini CLI";

/** The tools hooks:emit records (tool matchers are unanchored regexes on the name). */
export const GEMINI_RECORDED_TOOLS = "write_file|replace|run_shell_command|write_todos|invoke_agent|activate_skill";
export const GEMINI_WRITE_TOOLS = "write_file|replace";

export const GEMINI_TRUST_LINE =
  "  ⚠ Gemini CLI runs hooks only in a trusted folder: trust the project when Gemini asks (or list it in ~/.gemini/trustedFolders.json); automation may set GEMINI_CLI_TRUST_WORKSPACE=true.";

export function geminiHandlers(options: GenerateOptions): HandlerSpec[] {
  const handler = (event: string, name: string, kind: CommandKind, matcher?: string): HandlerSpec => ({
    event,
    ...(matcher !== undefined ? { matcher } : {}),
    name,
    timeout: HANDLER_TIMEOUT_SECONDS[kind] * 1000,
    command: geminiCommand(kind, kind === "guard" ? options.guardAgent : options.agent),
    env: GEMINI_HANDLER_ENV,
  });
  const specs: HandlerSpec[] = [handler("AfterTool", "aioson-emit", "telemetry", GEMINI_RECORDED_TOOLS)];
  if (options.guard) specs.push(handler("AfterTool", "aioson-context-guard", "guard", GEMINI_WRITE_TOOLS));
  specs.push(
    handler("BeforeAgent", "aioson-emit", "telemetry"),
    handler("AfterAgent", "aioson-turn-end", "turnEnd"),
    handler("BeforeModel", "aioson-compaction", "telemetry"),
    handler("SessionEnd", "aioson-session-end", "sessionEnd"),
  );
  return [...specs, ...(options.extra ?? [])];
}
