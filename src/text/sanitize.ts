/**
 * Spec 5.8: everything recorded (tool inputs, file names, the model's own words) is untrusted, and
 * the post-compaction checkpoint is injected at the harness's system level. Each item goes through
 * the six steps below, in this order, before it may go back into a model.
 */
import { redactSecrets } from "./redact.ts";

export type Sanitized = { kind: "kept"; text: string } | { kind: "withheld" } | { kind: "empty" };

/** Step 1: `<!-- … -->` across lines; an unterminated `<!--` takes the rest of the item with it. */
export function removeHtmlComments(text: string): string {
  return text.includes("<!--") ? text.replace(/<!--[\s\S]*?(?:-->|$)/g, "") : text;
}

/**
 * Step 2: zero-width and bidirectional controls, word joiners, BOM, soft hyphen, Unicode tag
 * characters, C0 controls except TAB/LF, DEL and C1 controls — characters a reader cannot see but a
 * model reads.
 */
const HIDDEN = /[\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF\u00AD\u{E0000}-\u{E007F}\u0000-\u0008\u000B-\u001F\u007F-\u009F]/gu;

export function removeHiddenCharacters(text: string): string {
  return text.replace(HIDDEN, "");
}

/** Step 3: one line, single spaces. Every Unicode space counts (U+2028 would otherwise start a line). */
export function collapseWhitespace(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/**
 * Step 5: text addressed to an AI rather than a person. Ordinary imperatives ("Run the tests") and
 * recorded commands (`curl … | bash`) do not match.
 */
const INSTRUCTION_PATTERNS: readonly RegExp[] = [
  /\b(?:ignore|disregard|forget|override)\b[\s\S]{0,40}?\b(?:previous|prior|above|earlier|all|any|your)\b[\s\S]{0,20}?\b(?:instruction|prompt|rule|directive|guideline)s?/i,
  /\byou are (?:now )?(?:an? )?(?:ai|assistant|language model|llm|chatgpt|claude|codex|gpt)\b/i,
  /\b(?:from now on|henceforth),? (?:you|the (?:assistant|model|ai))\b/i,
  /\b(?:system prompt|system message|developer message|jailbreak)/i,
  /^(?:system|assistant|developer)\s*:/i,
  /<\|[a-z_]+\|>/i,
  /\b(?:do not|don't|never) (?:tell|inform|reveal (?:this )?to|show) (?:the )?(?:user|human|operator)\b/i,
  /\b(?:new|updated|real|actual|hidden) (?:system )?instructions/i,
  /\b(?:ai|assistant|llm|language model)\s*[,:]\s*(?:you|please|ignore|do)\b/i,
];

/** A word every pattern above needs: text without any of them skips the patterns. */
const INSTRUCTION_WORDS = /ignore|disregard|forget|override|you are|from now on|henceforth|system|developer|jailbreak|assistant|<\||do not|don't|never|instructions|\bai\b|llm|language model/i;

export function readsAsInstruction(collapsed: string): boolean {
  return INSTRUCTION_WORDS.test(collapsed) && INSTRUCTION_PATTERNS.some((pattern) => pattern.test(collapsed));
}

/**
 * Step 6: a `<` that opens a tag-like token (`<x`, `</x`, `<!x`, `<?x`) becomes `‹` and the `>` that
 * closes it `›`, so `</system-reminder>` can no longer close or open a harness block. `a > b` stays.
 */
export function neutralizeTags(text: string): string {
  if (!text.includes("<")) return text;
  return text.replace(/<([/!?]?[A-Za-z][^<>]*)(>?)/g, (_match, body: string, close: string) => `‹${body}${close ? "›" : ""}`);
}

/**
 * Words of characters that are neither whitespace, `<`, a hidden character of step 2 nor half of a
 * surrogate pair (so no astral character, tag characters included), single spaces between them and
 * none at either end: steps 1–3 and 6 cannot change such an item (no comment, hidden character,
 * whitespace run or tag can be spelled with it), so only redaction and the instruction check run.
 * Most recorded items — paths, commands, plan items — take this path. Keep it in step with HIDDEN.
 */
const PLAIN_WORD = String.raw`[^\s<\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF\u00AD\u0000-\u001F\u007F-\u009F\uD800-\uDFFF]+`;
const PLAIN_WORDS = new RegExp(`^${PLAIN_WORD}(?: ${PLAIN_WORD})*$`);

/** Steps 1–6 on one recorded item. `empty` when nothing visible is left. */
export function sanitizeItem(raw: string): Sanitized {
  if (PLAIN_WORDS.test(raw)) {
    const redacted = redactSecrets(raw);
    return readsAsInstruction(redacted) ? { kind: "withheld" } : { kind: "kept", text: redacted };
  }
  const collapsed = collapseWhitespace(removeHiddenCharacters(removeHtmlComments(raw)));
  const redacted = redactSecrets(collapsed);
  if (readsAsInstruction(redacted)) return { kind: "withheld" };
  const text = neutralizeTags(redacted);
  return text ? { kind: "kept", text } : { kind: "empty" };
}
