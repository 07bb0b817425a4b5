/**
 * The hook answer that gives the model a piece of context, in each harness's shape. Used by hooks:emit (an owed
 * checkpoint), context:guard and the guard kit.
 * - Gemini CLI reads `hookSpecificOutput.additionalContext` on SessionStart, BeforeAgent and AfterTool (not on
 *   BeforeTool) and HTML-escapes `<` and `>` in it (`DefaultHookOutput.getAdditionalContext`), so the model would read
 *   `&lt;`: they are written as `‹` `›` instead. Its Windows runner is PowerShell, which re-encodes a native command's
 *   output in the console code page: the JSON is written in ASCII (`\uXXXX` for the rest).
 * - GitHub Copilot CLI delivers only a top-level `additionalContext` on sessionStart, userPromptSubmitted,
 *   postToolUse and subagentStart (real-harnesses §5), VS Code reads `hookSpecificOutput.additionalContext` (and on
 *   UserPromptSubmit falls back to the top-level one): both are written, so each reads it once. On PreToolUse both
 *   read `hookSpecificOutput`.
 */

/** Normalised event → the Gemini CLI event that carries it. */
const GEMINI_EVENTS: Readonly<Record<string, string>> = {
  SessionStart: "SessionStart",
  UserPromptSubmit: "BeforeAgent",
  PostToolUse: "AfterTool",
  PostToolUseFailure: "AfterTool",
};

/** What Gemini CLI would escape, as characters that read the same. */
export function geminiSafeText(text: string): string {
  return text.replaceAll("<", "\u2039").replaceAll(">", "\u203a");
}

/** JSON in ASCII only: what a code-page re-encoding cannot damage. */
export function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(/[\u007f-\uffff]/g, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** The Gemini event name of a normalised one (null when Gemini reads no context there). */
export function geminiContextEvent(event: string): string | null {
  return GEMINI_EVENTS[event] ?? null;
}

/** The answer handing `text` to the model on `event` (normalised name), or null when the harness reads none there. */
export function contextAnswer(harness: string, event: string, text: string): string | null {
  if (harness === "gemini") {
    const name = geminiContextEvent(event);
    return name === null ? null : asciiJson({ hookSpecificOutput: { hookEventName: name, additionalContext: geminiSafeText(text) } });
  }
  const specific = { hookSpecificOutput: { hookEventName: event, additionalContext: text } };
  if (harness === "copilot" && event !== "PreToolUse") return JSON.stringify({ additionalContext: text, ...specific });
  return JSON.stringify(specific);
}
