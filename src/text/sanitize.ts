/**
 * Spec 5.8: everything recorded (tool inputs, file names, the model's own words) and everything a project holds
 * (rules, lessons, commit subjects, branch names, kit texts) is untrusted, and what aioson injects lands at the
 * harness's system level. This is the one sanitiser: every item of every text that goes back into a model — the
 * recap, context:guard's constraints and findings, the lesson, session-context and context-save texts, the guards'
 * reasons that quote recorded or project text — goes through the six steps below, in this order.
 */
import { foldConfusables, GREATER_THAN_LOOK_ALIKES, LESS_THAN_LOOK_ALIKES } from "./confusables.ts";
import { redactSecrets } from "./redact.ts";

export type Sanitized = { kind: "kept"; text: string } | { kind: "withheld" } | { kind: "empty" };

/** Step 1: `<!-- … -->` across lines; an unterminated `<!--` takes the rest of the item with it. */
export function removeHtmlComments(text: string): string {
  return text.includes("<!--") ? text.replace(/<!--[\s\S]*?(?:-->|$)/g, "") : text;
}

/**
 * Step 2: characters a reader cannot see but a model reads. Spec 5.8 lists zero-width and bidirectional controls,
 * word joiners, BOM, soft hyphen, Unicode tag characters, C0 controls except TAB/LF, DEL and C1 controls; the class
 * below holds those and the rest of their families: every default-ignorable code point and every format character
 * (Unicode's `Default_Ignorable_Code_Point` and `Cf`, spelled out because a property class costs several times the
 * compile at a hook's first non-ASCII item; test/unit/sanitize.test.ts checks the list against both properties) —
 * variation selectors U+FE00–FE0F and U+E0100–E01EF, the combining grapheme joiner U+034F, the Hangul fillers
 * U+115F/U+1160/U+3164/U+FFA0, the Mongolian vowel separator and free variation selectors U+180B–180F, the Arabic
 * letter mark, the Khmer inherent vowels, U+2065–206F, the interlinear annotation marks U+FFF9–FFFB, the prepended
 * concatenation marks, the shorthand and musical format controls, the rest of U+E0000–E0FFF. U+2800 (Braille
 * blank) is a letter-like symbol that draws nothing; lone surrogates draw a replacement box at best.
 */
export const HIDDEN_CHARACTER_CLASS = String.raw`\u0000-\u0008\u000B-\u001F\u007F-\u009F\u00AD\u034F\u0600-\u0605\u061C\u06DD\u070F\u0890-\u0891\u08E2\u115F-\u1160\u17B4-\u17B5\u180B-\u180F\u200B-\u200F\u202A-\u202E\u2060-\u206F\u2800\u3164\uD800-\uDFFF\uFE00-\uFE0F\uFEFF\uFFA0\uFFF0-\uFFFB\u{110BD}\u{110CD}\u{13430}-\u{1343F}\u{1BCA0}-\u{1BCA3}\u{1D173}-\u{1D17A}\u{E0000}-\u{E0FFF}`;
const hidden = () => new RegExp(`[${HIDDEN_CHARACTER_CLASS}]`, "gu");
/** The same for ASCII text, whose only hidden characters are controls. */
const ASCII_HIDDEN = /[\u0000-\u0008\u000B-\u001F\u007F]/g;
const ASCII_ONLY = /^[\u0000-\u007F]*$/;
/** Created on first use, like the instruction patterns of step 5. */
let hiddenPattern: RegExp | null = null;

export function removeHiddenCharacters(text: string): string {
  return text.replace(ASCII_ONLY.test(text) ? ASCII_HIDDEN : (hiddenPattern ??= hidden()), "");
}

/** Step 3: one line, single spaces. Every Unicode space counts (U+2028 would otherwise start a line). */
export function collapseWhitespace(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/**
 * Step 5: text addressed to an AI rather than a person. Ordinary imperatives ("Run the tests") and
 * recorded commands (`curl … | bash`) do not match. Each pattern runs only when the text holds a word it needs
 * (most texts hold none), and is created on first use: creating a RegExp parses it, and a hook should parse only
 * the patterns its texts need.
 */
type InstructionPattern = { needs: RegExp; pattern: () => RegExp };

const INSTRUCTION_PATTERNS: readonly InstructionPattern[] = [
  {
    needs: /ignore|disregard|forget|override/i,
    pattern: () => /\b(?:ignore|disregard|forget|override)\b[\s\S]{0,40}?\b(?:previous|prior|above|earlier|all|any|your)\b[\s\S]{0,20}?\b(?:instruction|prompt|rule|directive|guideline)s?/i,
  },
  { needs: /you are/i, pattern: () => /\byou are (?:now )?(?:an? )?(?:ai|assistant|language model|llm|chatgpt|claude|codex|gpt)\b/i },
  { needs: /from now on|henceforth/i, pattern: () => /\b(?:from now on|henceforth),? (?:you|the (?:assistant|model|ai))\b/i },
  { needs: /system|developer|jailbreak/i, pattern: () => /\b(?:system prompt|system message|developer message|jailbreak)/i },
  { needs: /^(?:system|assistant|developer)/i, pattern: () => /^(?:system|assistant|developer)\s*:/i },
  { needs: /<\|/, pattern: () => /<\|[a-z_]+\|>/i },
  { needs: /do not|don't|never/i, pattern: () => /\b(?:do not|don't|never) (?:tell|inform|reveal (?:this )?to|show) (?:the )?(?:user|human|operator)\b/i },
  { needs: /instructions/i, pattern: () => /\b(?:new|updated|real|actual|hidden) (?:system )?instructions/i },
  { needs: /\bai\b|assistant|llm|language model/i, pattern: () => /\b(?:ai|assistant|llm|language model)\s*[,:]\s*(?:you|please|ignore|do)\b/i },
];
const compiledInstructions: Array<RegExp | undefined> = [];

/** A word one of the patterns above needs: text without any of them skips them all. */
const INSTRUCTION_WORDS = /ignore|disregard|forget|override|you are|from now on|henceforth|system|developer|jailbreak|assistant|<\||do not|don't|never|instructions|\bai\b|llm|language model/i;

/**
 * The test runs on the text as the letters it shows (look-alikes of other scripts, fullwidth and mathematical forms
 * and combining marks folded: "Ign<Cyrillic о>re all previous instructions" reads as what it imitates).
 */
export function readsAsInstruction(collapsed: string): boolean {
  const shown = foldConfusables(collapsed);
  if (!INSTRUCTION_WORDS.test(shown)) return false;
  return INSTRUCTION_PATTERNS.some((entry, index) => entry.needs.test(shown) && (compiledInstructions[index] ??= entry.pattern()).test(shown));
}

/**
 * Step 6: a `<` that opens a tag-like token (`<x`, `</x`, `<!x`, `<?x`) becomes `‹` and the `>` that
 * closes it `›`, so `</system-reminder>` can no longer close or open a harness block. `a > b` stays.
 *
 * The decision is made on the text as it shows (confusables.ts): a bracket that looks like `<` or `>` (`‹`, `＜`,
 * `〈`, `⟨`, `˂`…) counts as one, and so do look-alike letters and slashes after it, so `‹/ѕystem-reminder>` (Cyrillic
 * ѕ), `<\u212Aey>` (Kelvin sign) and `〈/system-reminder〉` all come out as `‹…›`. The letters are kept as written.
 */
export function neutralizeTags(text: string): string {
  if (ASCII_ONLY.test(text)) return text.includes("<") ? text.replace(/<([/!?]?[A-Za-z][^<>]*)(>?)/g, neutral) : text;
  return text.replace((lookAlikeTag ??= lookAlikeTagPattern()), (match, body: string, close: string) => (opensTag(body) ? neutral(match, body, close) : match));
}

function neutral(_match: string, body: string, close: string): string {
  return `‹${body}${close ? "›" : ""}`;
}

const TAG_START = /^[/!?]?[A-Za-z]/;

/** What follows a bracket starts a tag (`/`, `!` or `?` at most, then a letter) as the text shows. */
function opensTag(body: string): boolean {
  return TAG_START.test(body) || TAG_START.test(foldConfusables(body));
}

/** Any opening bracket, what follows it up to the next bracket of either kind, and the closing one if it is next. */
function lookAlikeTagPattern(): RegExp {
  const open = `<${LESS_THAN_LOOK_ALIKES.replaceAll(" ", "")}`;
  const close = `>${GREATER_THAN_LOOK_ALIKES.replaceAll(" ", "")}`;
  return new RegExp(`[${open}]([^${open}${close}]*)([${close}]?)`, "gu");
}
/** Created on first use: most texts are ASCII. */
let lookAlikeTag: RegExp | null = null;

/**
 * Printable ASCII words without `<`, single spaces between them and none at either end: steps 1–3 and 6 cannot
 * change such an item (no comment, hidden character, whitespace run or tag can be spelled with it), so only
 * redaction and the instruction check run. Most recorded items — paths, commands, plan items — take this path; an
 * ASCII-only class also keeps the Unicode-property classes of step 2 from being compiled for them.
 */
const PLAIN_ASCII = /^[!-;=-~]+(?: [!-;=-~]+)*$/;

/** Steps 1–6 on one recorded item. `empty` when nothing visible is left. */
export function sanitizeItem(raw: string): Sanitized {
  if (PLAIN_ASCII.test(raw)) {
    const redacted = redactSecrets(raw);
    return readsAsInstruction(redacted) ? { kind: "withheld" } : { kind: "kept", text: redacted };
  }
  const collapsed = collapseWhitespace(removeHiddenCharacters(removeHtmlComments(raw)));
  const redacted = redactSecrets(collapsed);
  if (readsAsInstruction(redacted)) return { kind: "withheld" };
  const text = neutralizeTags(redacted);
  return text ? { kind: "kept", text } : { kind: "empty" };
}

/**
 * Sanitises the items of one text that goes back into a model and counts the withheld ones, so the text can say how
 * many it left out (`withheldLine`).
 */
export class Sanitizer {
  withheld = 0;

  /** The sanitised text, or null when withheld (counted) or empty. */
  item(raw: string | null | undefined): string | null {
    if (raw === null || raw === undefined) return null;
    const result = sanitizeItem(raw);
    if (result.kind === "withheld") this.withheld += 1;
    return result.kind === "kept" ? result.text : null;
  }

  /**
   * A multi-line text (a project's reminder, a snapshot) line by line: each line an item, empty lines dropped. An
   * instruction spelled across lines is withheld whole: the lines read together are tested too.
   */
  lines(raw: string): string[] {
    const kept: string[] = [];
    for (const line of removeHtmlComments(raw).split(/\r\n|[\n\r\u2028\u2029]/)) {
      const text = this.item(line);
      if (text !== null) kept.push(text);
    }
    if (kept.length > 1 && readsAsInstruction(kept.join(" "))) {
      this.withheld += kept.length;
      return [];
    }
    return kept;
  }
}

/** The closing line of a text that withheld something; `what` names the items ("recorded item(s)", "line(s)"). */
export function withheldLine(count: number, what = "item(s)"): string {
  return `Withheld ${count} ${what} that read like instructions to an AI.`;
}
