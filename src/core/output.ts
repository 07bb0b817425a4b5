/**
 * Output helpers. `console.log` is used on purpose: merely touching `process.stdout` costs a hook
 * about 15 ms of startup in a compiled Bun binary.
 */
/**
 * What JSON.stringify leaves raw although a terminal may obey it or reorder text by it: DEL, the C1 controls (U+009B
 * is CSI, U+009D OSC), bidi controls and the line separators. Written as `\uXXXX`, the document parses to the same
 * value and can be printed on a terminal as it is.
 */
const RAW_IN_JSON = /[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

export function jsonText(value: unknown): string {
  const text = JSON.stringify(value, null, 2);
  return text.replace(RAW_IN_JSON, (char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

export function printJson(value: unknown): void {
  console.log(jsonText(value));
}

/**
 * A failure meant for a person: `Error: <message>` on stderr and exit status 1 (spec 0.3), printed by
 * src/human/output.ts. `hint` says what to run next, on its own line under it; the `--json` envelope, whose shape the
 * spec fixes, carries only the message. `specWorded`: the spec words this error, and spec 0.3 makes stderr that one
 * line — the hint is then shown only on a terminal, to the person who reads it there.
 */
export class CommandError extends Error {
  readonly exitCode: number;
  readonly hint: string | null;
  readonly specWorded: boolean;

  constructor(message: string, options: { exitCode?: number; hint?: string; specWorded?: boolean } = {}) {
    super(message);
    this.name = "CommandError";
    this.exitCode = options.exitCode ?? 1;
    this.hint = options.hint ?? null;
    this.specWorded = options.specWorded === true;
  }
}
