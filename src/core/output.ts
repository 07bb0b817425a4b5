/**
 * Output helpers. `console.log` is used on purpose: merely touching `process.stdout` costs a hook
 * about 15 ms of startup in a compiled Bun binary.
 */
export function printJson(value: unknown): void {
  console.log(JSON.stringify(value, null, 2));
}

/**
 * A failure meant for a person: `Error: <message>` on stderr and exit status 1 (spec 0.3), printed by
 * src/human/output.ts. `hint` says what to run next, on its own line under it; the `--json` envelope, whose shape the
 * spec fixes, carries only the message.
 */
export class CommandError extends Error {
  readonly exitCode: number;
  readonly hint: string | null;

  constructor(message: string, options: { exitCode?: number; hint?: string } = {}) {
    super(message);
    this.name = "CommandError";
    this.exitCode = options.exitCode ?? 1;
    this.hint = options.hint ?? null;
  }
}
