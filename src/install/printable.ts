/**
 * Text taken from a config file or the command line, as it may be shown on a terminal: anything but printable ASCII
 * escaped (`\u{1b}`) and the whole cut at 80 characters, so a hostile project's file can never carry terminal escape
 * sequences, bidi overrides or pages of text into what aioson prints.
 */
const MAX_SHOWN = 80;

export function printable(value: string): string {
  const chars = [...value];
  const shown = chars.slice(0, MAX_SHOWN).map((c) => (/^[\x20-\x7e]$/.test(c) ? c : `\\u{${(c.codePointAt(0) ?? 0).toString(16)}}`)).join("");
  return chars.length > MAX_SHOWN ? `${shown}…` : shown;
}
