/**
 * The one schema of keys and labels. The project is untrusted (README "Security"): a value read back from the store,
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
 * Label caps in characters (README "Security"). Real values are far shorter: a harness session id is a UUID or an
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
 * invisible or bidi character can hide in a folder name (and a Unicode-class regex costs a hook 0.07 ms to compile).
 */
export const KEY_MAX = 128;
const KEY_CHARS = /^[A-Za-z0-9][A-Za-z0-9._:@+=,~-]*$/;
/** Names Windows maps onto devices whatever their extension (`live\CON\state.json` is not a file). */
const WINDOWS_DEVICE = /^(?:con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(?:\.|$)/i;

/** Why `key` cannot be a session, run or task key, or null when it can. */
export function keyProblem(key: string): string | null {
  if (key.length === 0) return "is empty";
  if (key.length > KEY_MAX) return `is longer than ${KEY_MAX} characters`;
  if (!KEY_CHARS.test(key)) return "must start with an ASCII letter or digit and hold only ASCII letters, digits and . _ : @ + = , ~ -";
  if (key.includes("..")) return "must not contain ..";
  if (key.endsWith(".")) return "must not end with .";
  if (WINDOWS_DEVICE.test(key)) return "is a Windows device name";
  return null;
}

export function isSafeKey(key: string): boolean {
  return keyProblem(key) === null;
}
