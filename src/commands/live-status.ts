import { defineCommand } from "../cli/command.ts";
import { CommandError, printJson } from "../core/output.ts";
import { hooksSwitchedOff, switchedOffNotice } from "../core/switch.ts";
import { sayLines } from "../human/lazy.ts";
import { DEFAULT_LIMIT, MAX_LIMIT, formatCompact, formatLiveStatus, formatTmuxBar, liveSnapshot, type LiveSnapshot } from "../live/status.ts";
import { DIR_ARG, JSON_ARG, numberOption, requiredAgent, textOption, userRoot } from "../runtime/args.ts";
import { openExistingStore } from "../runtime/store-access.ts";
import { closeStore } from "../store/db.ts";

const DEFAULT_WATCH_SECONDS = 2;
const FORMATS = ["default", "compact", "tmux-bar"] as const;
type Format = (typeof FORMATS)[number];

function format(value: unknown): Format {
  const text = textOption(value) ?? "default";
  const found = FORMATS.find((name) => name === text);
  if (!found) throw new CommandError(`Unsupported --format: ${text} (expected compact or tmux-bar).`);
  return found;
}

function limit(value: unknown): number {
  const parsed = numberOption(value);
  return parsed === null || parsed < 1 ? DEFAULT_LIMIT : Math.min(MAX_LIMIT, Math.floor(parsed));
}

/**
 * `--watch[=<seconds>]` read from the raw tokens: `--watch` is a switch with an optional value, so a
 * following flag (`--watch --json`) must not be taken as its value. Null when absent.
 */
function watchSeconds(rawArgs: readonly string[]): number | null {
  const index = rawArgs.findIndex((token) => token === "--watch" || token.startsWith("--watch="));
  if (index < 0) return null;
  const token = rawArgs[index] as string;
  const next = rawArgs[index + 1];
  const value = token.includes("=") ? token.slice(token.indexOf("=") + 1) : next !== undefined && /^\d+(\.\d+)?$/.test(next) ? next : null;
  const seconds = numberOption(value);
  return seconds !== null && seconds > 0 ? seconds : DEFAULT_WATCH_SECONDS;
}

/**
 * The start directory: the first positional, unless that is the seconds of `--watch 5` (the switch never takes the
 * next token, so `--watch ~/project` keeps the project); then the one after it.
 */
function dirArg(positionals: readonly string[], rawArgs: readonly string[]): string | undefined {
  const index = rawArgs.indexOf("--watch");
  const seconds = index >= 0 ? rawArgs[index + 1] : undefined;
  const takenAsSeconds = seconds !== undefined && /^\d+(\.\d+)?$/.test(seconds) && positionals[0] === seconds;
  return positionals[takenAsSeconds ? 1 : 0];
}

function render(snapshot: LiveSnapshot, style: Format): string[] {
  if (style === "compact") return [formatCompact(snapshot)];
  if (style === "tmux-bar") return [formatTmuxBar(snapshot)];
  // The kill switch in this shell: after spec 11's lines, which keep their places.
  const off = switchedOffNotice();
  return off ? [...formatLiveStatus(snapshot), `⚠ ${off} (set in this shell; unset AIOSON to switch them back on)`] : formatLiveStatus(snapshot);
}

export default defineCommand({
  meta: { name: "live:status", description: "Show the live session of an agent" },
  args: {
    dir: DIR_ARG,
    agent: { type: "string", description: "Agent whose session to show (default: the latest session)" },
    // A switch that may be given its seconds (`--watch`, `--watch=5`, `--watch 5`): help shows `--watch[=<seconds>]`.
    watch: { type: "boolean", valueHint: "seconds", description: "Reprint every <seconds> (default 2) until Ctrl+C" },
    format: { type: "string", description: "compact or tmux-bar" },
    limit: { type: "string", description: `Recent events shown (1..${MAX_LIMIT}, default ${DEFAULT_LIMIT})` },
    json: JSON_ARG,
  },
  async run({ args, rawArgs }) {
    const seconds = watchSeconds(rawArgs);
    const json = args.json === true || rawArgs.includes("--json") || rawArgs.includes("-j");
    if (seconds !== null && json) throw new CommandError("--watch cannot be combined with --json.");
    const style = format(args.format);
    const agent = textOption(args.agent) === null ? null : requiredAgent(args.agent, "--agent needs a value");
    const root = userRoot(dirArg(args._, rawArgs));
    const snapshot = (): LiveSnapshot => {
      const store = openExistingStore(root);
      try {
        return liveSnapshot(store.db, root, store.path, agent, limit(args.limit));
      } finally {
        closeStore(store);
      }
    };
    if (seconds === null) {
      const result = snapshot();
      if (json) printJson(hooksSwitchedOff() ? { ...result, hooksSwitchedOff: true } : result);
      else await sayLines(render(result, style));
      return;
    }
    const { watchLive } = await import("../dashboard/watch.ts");
    await watchLive(root, seconds, () => {
      const result = snapshot();
      return { lines: render(result, style), runKey: style === "default" ? (result.run?.run_key ?? null) : null };
    });
  },
});
