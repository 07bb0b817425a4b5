/**
 * "Did you mean …?" for a command or option nobody declared. Loaded only on that error path, never by a hook.
 * A near miss is a name whose spelling, separators aside (`hook:install`, `hooks-instal`, `--dryrun`), is at most a
 * couple of edits away, one the typed text begins (`hooks:doc`), or — for a command — the part after its colon
 * (`install`, `status`).
 */
import { CommandError } from "../core/output.ts";

/** Lower case with the separators people mix up (`:` `-` `_` `.`) taken out. */
function squash(name: string): string {
  return name.toLowerCase().replace(/[-_:.]/g, "");
}

/** Optimal string alignment distance: insertions, deletions, substitutions and swaps of neighbours cost one each. */
export function editDistance(a: string, b: string): number {
  const rows: number[][] = Array.from({ length: a.length + 1 }, (_, i) => Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)));
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const row = rows[i] as number[];
      const above = rows[i - 1] as number[];
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min((above[j] as number) + 1, (row[j - 1] as number) + 1, (above[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) best = Math.min(best, ((rows[i - 2] as number[])[j - 2] as number) + 1);
      row[j] = best;
    }
  }
  return (rows[a.length] as number[])[b.length] as number;
}

/** Edits allowed for a name of this length: one for short names, about one in four characters beyond. */
function allowance(length: number): number {
  return Math.max(1, Math.min(3, Math.floor(length / 4)));
}

const MIN_PREFIX = 4;

/** The candidates nearest to `typed` (several when they tie), or none when nothing is near. */
export function nearest(typed: string, candidates: readonly string[]): string[] {
  const given = squash(typed);
  if (given === "") return [];
  const scored = candidates.map((name) => ({ name, distance: editDistance(given, squash(name)) }));
  const best = Math.min(...scored.map((s) => s.distance));
  if (best <= allowance(given.length)) return scored.filter((s) => s.distance === best).map((s) => s.name);
  if (given.length >= MIN_PREFIX) {
    const begun = candidates.filter((name) => squash(name).startsWith(given));
    if (begun.length > 0 && begun.length <= 3) return begun;
  }
  return candidates.filter((name) => name.includes(":") && squash(name.slice(name.indexOf(":") + 1)) === given);
}

/** `Did you mean \`a\`?` / `Did you mean \`a\` or \`b\`?`, or null. */
export function didYouMean(names: readonly string[]): string | null {
  if (names.length === 0) return null;
  const quoted = names.map((name) => `\`${name}\``);
  const last = quoted.pop() as string;
  return `Did you mean ${quoted.length > 0 ? `${quoted.join(", ")} or ${last}` : last}?`;
}

/** An option the command does not declare: the nearest ones it does, else the list of them. */
export function unknownOptionsError(command: string, unknown: readonly string[], options: readonly string[]): CommandError {
  const guesses = unknown.map((typed) => didYouMean(nearest(typed, options)));
  const message =
    unknown.length === 1
      ? `Unknown option ${unknown[0]} for ${command}.${guesses[0] ? ` ${guesses[0]}` : ""}`
      : `Unknown options for ${command}: ${unknown.map((typed, i) => (guesses[i] ? `${typed} (${(guesses[i] as string).replace(/^D/, "d")})` : typed)).join(", ")}.`;
  const listed = options.length > 0 ? `Its options: ${options.join(", ")}; ` : `${command} takes no options; `;
  return new CommandError(message, { hint: `${listed}\`aioson ${command} --help\` says what each does.` });
}

/** A command nobody declared: the nearest ones, else the whole list (`list`: the lines of `aioson --help`). */
export function unknownCommandError(typed: string, names: readonly string[], list: readonly string[]): CommandError {
  const guess = didYouMean(nearest(typed, names));
  if (guess) return new CommandError(`Unknown command: ${typed}. ${guess}`, { hint: "Run `aioson --help` for every command." });
  return new CommandError(`Unknown command: ${typed}.`, { hint: ["The commands:", ...list].join("\n") });
}
