/**
 * Output helpers. `console.log` is used on purpose: merely touching `process.stdout` costs a hook
 * about 15 ms of startup in a compiled Bun binary.
 */
export function printJson(value: unknown): void {
  console.log(JSON.stringify(value, null, 2));
}

export function printLines(lines: readonly string[]): void {
  if (lines.length > 0) console.log(lines.join("\n"));
}

/** A failure meant for a person: `Error: <message>` on stderr and exit status 1 (spec 0.3). */
export class CommandError extends Error {
  constructor(
    message: string,
    readonly exitCode = 1,
    readonly details: Record<string, unknown> = {},
  ) {
    super(message);
    this.name = "CommandError";
  }
}

export function reportError(error: unknown, command: string, json: boolean): number {
  const message = error instanceof Error ? error.message : String(error);
  const exitCode = error instanceof CommandError ? error.exitCode : 1;
  if (json) printJson({ ok: false, error: { code: "command_error", message, command } });
  else console.error(`Error: ${message}`);
  return exitCode;
}
