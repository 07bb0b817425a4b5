/** `--source` picks the adapter; an unknown harness is treated as Claude-compatible. */
import { antigravityAdapter } from "./antigravity.ts";
import { claudeAdapter } from "./claude.ts";
import { codexAdapter } from "./codex.ts";
import { copilotAdapter, isCopilotPayload } from "./copilot.ts";
import { opencodeAdapter } from "./opencode.ts";
import type { Adapter } from "./types.ts";

const ADAPTERS: Readonly<Record<string, Adapter>> = {
  claude: claudeAdapter,
  codex: codexAdapter,
  antigravity: antigravityAdapter,
  opencode: opencodeAdapter,
  copilot: copilotAdapter,
};

export function adapterFor(source: string): Adapter {
  return ADAPTERS[source] ?? claudeAdapter;
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
