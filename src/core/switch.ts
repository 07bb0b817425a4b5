/**
 * The kill switch: `AIOSON=0` in the environment a harness runs its hooks with switches every hook-facing command
 * (`hooks:emit`, `hooks:recap`, `context:guard`, `guard:*`) to its no-op answer, for a user who must turn the hooks off
 * right now without uninstalling them. A switched-off hook reads no stdin and no file and writes nothing, not even a
 * hook-log line: the check comes before anything else the command does.
 */

/** The values that switch the hooks off, compared trimmed and case-insensitively; anything else leaves them on. */
const OFF_VALUES: ReadonlySet<string> = new Set(["0", "false", "off", "no"]);

export function hooksSwitchedOff(env: Readonly<Record<string, string | undefined>> = process.env): boolean {
  const value = env.AIOSON;
  return value !== undefined && OFF_VALUES.has(value.trim().toLowerCase());
}

/** The environment without the switch: what a handler runs with once the user unsets it. */
export function withoutSwitch(env: Readonly<Record<string, string | undefined>>): Record<string, string | undefined> {
  const copy: Record<string, string | undefined> = { ...env };
  delete copy.AIOSON;
  return copy;
}

/** How the switch reads to a person (hooks:doctor, live:status), with the value as it is set. */
export function switchedOffNotice(env: Readonly<Record<string, string | undefined>> = process.env): string | null {
  return hooksSwitchedOff(env) ? `AIOSON=${(env.AIOSON ?? "").trim()} is set: every aioson hook answers as a no-op and records nothing` : null;
}
