/**
 * Argument parsing of spec 0.1 for commands declared in citty's shape (`ArgsDef`). Hook commands sit on
 * the agent's critical path and citty's own parser pulls in `node:util` (about 1.5 ms of startup in a
 * compiled binary), so every command is parsed here; `--help` is rendered from the same shape (src/human/help.ts).
 */
import type { ArgsDef } from "citty";

/** Spec 0.1: switches that never swallow the next token, whatever the command declares. */
const GLOBAL_SWITCHES: ReadonlySet<string> = new Set([
  "json", "dry-run", "no-guard", "no-hooks", "no-launch", "help", "version", "attach", "tmux", "once", "no-jev", "all", "force",
]);
const GLOBAL_SHORT: Readonly<Record<string, string>> = { j: "json", d: "dry-run", h: "help", f: "force", v: "version" };

export type ParsedArgs = Record<string, unknown> & { _: string[] };

/** Accepted after any command: `--help` is answered before parsing, `--version` changes nothing there. */
const ALWAYS_KNOWN: ReadonlySet<string> = new Set(["help", "h", "version", "v"]);

/** `dryRun` → `dry-run`: the spelling people type and help shows. */
export function kebab(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, "$1-$2").toLowerCase();
}

function camel(name: string): string {
  return name.replace(/-([a-z0-9])/g, (_m, c: string) => c.toUpperCase());
}

type Declared = { name: string; type: string; aliases: string[]; default: unknown };

function declaredArgs(def: ArgsDef): Declared[] {
  return Object.entries(def).map(([name, arg]) => {
    const alias = (arg as { alias?: string | string[] }).alias;
    return {
      name,
      type: arg.type ?? "string",
      aliases: alias === undefined ? [] : Array.isArray(alias) ? alias : [alias],
      default: (arg as { default?: unknown }).default,
    };
  });
}

/** Parses `rawArgs` (the command token already removed) against a command's declared args. */
export function parseArgs(rawArgs: readonly string[], def: ArgsDef = {}): ParsedArgs {
  return parseCommandArgs(rawArgs, def).args;
}

/**
 * The parsed args, and the options the command does not declare, as typed (`--dryrun`, `-x`): a person's command
 * refuses them (cli.ts), a hook ignores them.
 */
export function parseCommandArgs(rawArgs: readonly string[], def: ArgsDef = {}): { args: ParsedArgs; unknown: string[] } {
  const declared = declaredArgs(def);
  const byFlag = new Map<string, Declared>();
  for (const arg of declared) {
    if (arg.type === "positional") continue;
    for (const flag of [arg.name, kebab(arg.name), camel(arg.name), ...arg.aliases]) byFlag.set(flag, arg);
  }
  const isBoolean = (flag: string) => byFlag.get(flag)?.type === "boolean" || GLOBAL_SWITCHES.has(flag);
  const values: Record<string, unknown> = {};
  const positionals: string[] = [];
  const unknown: string[] = [];
  const set = (flag: string, value: unknown, typed: string) => {
    const arg = byFlag.get(flag);
    if (arg) {
      values[arg.name] = arg.type === "boolean" && typeof value === "string" ? value !== "false" : value;
      return;
    }
    if (flag.startsWith("no-") && byFlag.get(flag.slice(3))?.type === "boolean" && value === true) {
      values[(byFlag.get(flag.slice(3)) as Declared).name] = false;
      return;
    }
    // `-1` is a negative number given to a flag that took no value, not an option.
    if (!ALWAYS_KNOWN.has(flag) && !/^-\d$/.test(typed) && !unknown.includes(typed)) unknown.push(typed);
    values[flag] = value;
  };

  for (let i = 0; i < rawArgs.length; i++) {
    const token = rawArgs[i] as string;
    if (token === "--") {
      positionals.push(...rawArgs.slice(i + 1));
      break;
    }
    if (token.startsWith("--") && token.length > 2) {
      const body = token.slice(2);
      const eq = body.indexOf("=");
      if (eq >= 0) {
        set(body.slice(0, eq), body.slice(eq + 1), `--${body.slice(0, eq)}`);
        continue;
      }
      const next = rawArgs[i + 1];
      if (!isBoolean(body) && next !== undefined && !next.startsWith("-")) {
        set(body, next, token);
        i++;
      } else {
        set(body, true, token);
      }
      continue;
    }
    if (token.startsWith("-") && token.length === 2 && token !== "--") {
      const short = token.slice(1);
      const arg = byFlag.get(short);
      const flag = arg ? arg.name : GLOBAL_SHORT[short] ?? short;
      const next = rawArgs[i + 1];
      if (arg && arg.type !== "boolean" && next !== undefined && !next.startsWith("-")) {
        set(flag, next, token);
        i++;
      } else {
        set(flag, true, token);
      }
      continue;
    }
    positionals.push(token);
  }

  const parsed: ParsedArgs = { ...values, _: positionals };
  let nextPositional = 0;
  for (const arg of declared) {
    if (arg.type === "positional") {
      parsed[arg.name] = positionals[nextPositional++] ?? arg.default;
    } else if (parsed[arg.name] === undefined && arg.default !== undefined) {
      parsed[arg.name] = arg.default;
    }
  }
  for (const key of Object.keys(parsed)) {
    if (key === "_") continue;
    for (const variant of [camel(key), kebab(key)]) if (!(variant in parsed)) parsed[variant] = parsed[key];
  }
  return { args: parsed, unknown };
}

/** Every option a command declares, as people type it (`--dry-run`, `--no-guard` for a switch on by default). */
export function declaredOptions(def: ArgsDef = {}): string[] {
  return declaredArgs(def)
    .filter((arg) => arg.type !== "positional")
    .map((arg) => (arg.type === "boolean" && arg.default === true ? `--no-${kebab(arg.name)}` : `--${kebab(arg.name)}`));
}
