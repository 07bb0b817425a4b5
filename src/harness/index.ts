/** `--source` picks the adapter; an unknown harness is treated as Claude-compatible. */
import { antigravityAdapter } from "./antigravity.ts";
import { claudeAdapter } from "./claude.ts";
import { codexAdapter } from "./codex.ts";
import { copilotAdapter, isCopilotPayload } from "./copilot.ts";
import { geminiAdapter } from "./gemini.ts";
import { opencodeAdapter, opencodeNotices } from "./opencode.ts";
import { IDLE_MS, type StdinLimits } from "../core/stdin.ts";
import type { Adapter } from "./types.ts";

const ADAPTERS: Readonly<Record<string, Adapter>> = {
  claude: claudeAdapter,
  codex: codexAdapter,
  antigravity: antigravityAdapter,
  opencode: opencodeAdapter,
  copilot: copilotAdapter,
  gemini: geminiAdapter,
};

export function adapterFor(source: string): Adapter {
  return ADAPTERS[source] ?? claudeAdapter;
}

/**
 * Runners reported never to close the hook's stdin (harness-protocols 4.3/6.4, Antigravity): for them a whole JSON
 * object followed by a short silence is the payload, instead of spec 0.4's 5 s wait that would lose every event.
 * The others close stdin (VS Code's executor calls `stdin.end()`), so they keep spec 0.4 unchanged.
 */
const OPEN_STDIN_HARNESSES: ReadonlySet<string> = new Set(["antigravity"]);

export function stdinLimitsFor(source: string): Partial<StdinLimits> {
  return OPEN_STDIN_HARNESSES.has(source) ? { idleMs: IDLE_MS } : {};
}

/**
 * Lines a harness's own shim asks for in the project's hook log (the OpenCode plugin counts the events its full
 * queue dropped): the shim never writes project files itself.
 */
export function harnessNotices(source: string, raw: Record<string, unknown>): string[] {
  return source === "opencode" ? opencodeNotices(raw) : [];
}

/** The harness a payload is recorded under, or why it is not recorded at all. */
export type Route = { source: string; skip?: undefined } | { skip: "duplicate-copilot" };

/**
 * VS Code runs the Claude handlers for Copilot sessions too, flattening their matcher groups and ignoring the
 * matchers (microsoft/vscode `src/vs/workbench/contrib/chat/common/promptSyntax/hookClaudeCompat.ts`
 * `parseClaudeHooks`), so one Copilot tool call reaches every Claude PostToolUse handler (three of ours). A Copilot
 * payload arriving with `--source=claude` is therefore never recorded there: the Copilot handlers
 * (`hooks:install --tool=copilot`) record each event once.
 */
export function routePayload(source: string, raw: Record<string, unknown>): Route {
  return source === "claude" && isCopilotPayload(raw) ? { skip: "duplicate-copilot" } : { source };
}

/**
 * Harnesses after whose compaction no hook runs (Gemini CLI: nothing follows a compression; Copilot CLI compacts in
 * the background): the checkpoint is owed and handed over once by the next hook on one of these (normalised)
 * events, whose context the harness gives the model.
 */
const CHECKPOINT_EVENTS: Readonly<Record<string, ReadonlySet<string>>> = {
  gemini: new Set(["UserPromptSubmit", "PostToolUse", "PostToolUseFailure"]),
  copilot: new Set(["UserPromptSubmit", "PostToolUse", "PostToolUseFailure"]),
};

/** Whether a compaction of this harness leaves a checkpoint owed. */
export function owesCheckpoints(source: string): boolean {
  return source in CHECKPOINT_EVENTS;
}

/** Whether a hook of this harness on this event can hand over an owed checkpoint. */
export function deliversCheckpointOn(source: string, event: string | null): boolean {
  return event !== null && (CHECKPOINT_EVENTS[source]?.has(event) ?? false);
}
