/**
 * The one schema of keys and labels. The project is untrusted (docs/security.md): a value read back from the store,
 * a pointer or a state.json is checked with the same functions as the flag or payload value it came from, before it
 * becomes a path part; labels are capped with a visible cut mark before they are stored.
 */

/** Caps on stored strings: a cut is always visible, never silent. */
export const CUT_MARK = "…[truncated]";

/** At most `max` characters in all; a longer text keeps its head and ends with the cut mark. */
export function capHead(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, Math.max(0, max - CUT_MARK.length))}${CUT_MARK}` : text;
}

/**
 * Label caps in characters (docs/security.md). Real values are far shorter: a harness session id is a UUID or an
 * OpenCode `ses_…` id (≤ 40), a harness name a word, an event type or status a word.
 */
export const HARNESS_SESSION_ID_MAX = 128;
export const SOURCE_MAX = 64;
/** Every other label column of a stored row (tool name, event type, phase, status, verdict, plan step, ...). */
export const LABEL_MAX = 200;
/** A payload path (`cwd`, `transcript_path`) longer than any file system accepts is not a path: it is dropped. */
export const PATH_TEXT_MAX = 4_096;

/** A label as stored: capped, the cut visible. */
export function capLabel(text: string, max = LABEL_MAX): string {
  return capHead(text, max);
}

/**
 * The harness session id of a payload, exactly as every reader and writer spells it (hooks:emit records it,
 * hooks:recap and the guards look rows up by it): trimmed, capped; null when blank.
 */
export function harnessSessionId(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const id = value.trim();
  return id === "" ? null : capHead(id, HARNESS_SESSION_ID_MAX);
}

/** A payload path field: null when it is blank or longer than any real path. */
export function pathText(value: string | null | undefined): string | null {
  return typeof value === "string" && value.trim() !== "" && value.length <= PATH_TEXT_MAX ? value : null;
}

/**
 * Session, run and task keys: a session key names a folder (`live/<key with : as __>`). ASCII only: no look-alike,
 * invisible or bidi character can hide in a folder name. Checked with character codes, not a regex: compiling one
 * costs a hook some 0.04 ms, and this check runs on every hook that writes.
 */
export const KEY_MAX = 128;
const KEY_PUNCTUATION = "._:@+=,~-";
function isDigit(code: number): boolean {
  return code >= 48 && code <= 57;
}

function isAlphanumeric(code: number): boolean {
  return isDigit(code) || (code >= 65 && code <= 90) || (code >= 97 && code <= 122);
}

/** Names Windows maps onto devices whatever their extension (`live\CON\state.json` is not a file). */
function isWindowsDevice(key: string): boolean {
  const base = (key.split(".", 1)[0] ?? "").toLowerCase();
  if (base.length === 3) return base === "con" || base === "prn" || base === "aux" || base === "nul";
  return base.length === 4 && (base.startsWith("com") || base.startsWith("lpt")) && isDigit(base.charCodeAt(3));
}

/** Why `key` cannot be a session, run or task key, or null when it can. */
export function keyProblem(key: string): string | null {
  if (key.length === 0) return "is empty";
  if (key.length > KEY_MAX) return `is longer than ${KEY_MAX} characters`;
  for (let index = 0; index < key.length; index++) {
    const code = key.charCodeAt(index);
    if (isAlphanumeric(code) || (index > 0 && KEY_PUNCTUATION.includes(key.charAt(index)))) continue;
    return "must start with an ASCII letter or digit and hold only ASCII letters, digits and . _ : @ + = , ~ -";
  }
  if (key.includes("..")) return "must not contain ..";
  if (key.endsWith(".")) return "must not end with .";
  if (isWindowsDevice(key)) return "is a Windows device name";
  return null;
}

export function isSafeKey(key: string): boolean {
  return keyProblem(key) === null;
}
