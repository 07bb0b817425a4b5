/**
 * Text from the store or a project (event summaries, file names, agent names, plan items, paths, titles), as it may be
 * shown to a person on a terminal. All of it may come from a hostile repository, and a terminal obeys what it prints:
 * an escape sequence (`ESC [`, `ESC ]`, the C1 CSI and OSC) can move the cursor, rewrite what is on screen, retitle the
 * window or hand the terminal a link, and a bidi override reorders what a person reads. So every control character
 * and bidi control is shown as a visible `\u{…}` escape, and line breaks, tabs and the Unicode line and paragraph
 * separators become spaces: one recorded item is one line, and no text can draw a line of its own.
 * (Text injected into a model goes through src/text/sanitize.ts instead; `--json` output is JSON-escaped.)
 */

/** Characters that break a line or move the cursor along it. */
const LINE_BREAKING = /[\t\n\v\f\r\u0085\u2028\u2029]/g;
/** C0 controls, DEL, C1 controls (U+0080–U+009F: CSI U+009B and OSC U+009D among them), bidi marks, embeddings, overrides and isolates. */
const CONTROLS = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
const ANY_UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

/** `\u{1b}` for ESC: what a character is, written in printable ASCII. */
export function visibleEscape(char: string): string {
  return `\\u{${(char.codePointAt(0) ?? 0).toString(16)}}`;
}

/** One item of recorded or project text, safe to print on a terminal (see above). Safe text comes back unchanged. */
export function terminalText(text: string): string {
  if (!ANY_UNSAFE.test(text)) return text;
  return text.replace(LINE_BREAKING, " ").replace(CONTROLS, visibleEscape);
}
