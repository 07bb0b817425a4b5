import { defineCommand } from "../cli/command.ts";
import { agentOption } from "../core/agent.ts";
import { capLabel, SOURCE_MAX } from "../core/labels.ts";
import { CommandError, printJson } from "../core/output.ts";
import { human, printHuman } from "../human/output.ts";
import { resolveHookRoot } from "../core/project-root.ts";
import { DIR_ARG, JSON_ARG, numberOption, positiveInt, startDir, textOption, } from "../runtime/args.ts";
import { closeOwnSession, guardBanner, guardTick, type GuardConfig, type TickResult } from "../session/guard.ts";
import { closeStore, openStore, type Store } from "../store/db.ts";

const DEFAULT_IDLE_MINUTES = 60;
const DEFAULT_INTERVAL_MS = 30_000;

/** Spec 10.3: event lines on stderr, each prefixed. */
function log(line: string): void {
  human().lines([`[session:guard] ${line}`], "stderr");
}

function withStore<T>(root: string, work: (store: Store) => T): T {
  const store = openStore(root);
  if (!store) throw new Error("The runtime store could not be opened.");
  try {
    return work(store);
  } finally {
    closeStore(store);
  }
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export default defineCommand({
  meta: { name: "session:guard", description: "Supervise the agent's session and close it when idle" },
  args: {
    dir: DIR_ARG,
    agent: { type: "string", description: "Agent id (default dev)" },
    tool: { type: "string", description: "Harness recorded as tool_session (default claude)" },
    "idle-minutes": { type: "string", description: `Close the session after this much inactivity (default ${DEFAULT_IDLE_MINUTES})` },
    interval: { type: "string", description: `Poll period in milliseconds (default ${DEFAULT_INTERVAL_MS})` },
    once: { type: "boolean", description: "One check, no loop" },
    json: JSON_ARG,
  },
  async run({ args }) {
    const root = resolveHookRoot(startDir(args.dir));
    if (!root) throw new CommandError("not inside an AIOSON project", { hint: "Run it in an AIOSON project (or pass its folder), or make this one a project first: aioson init", specWorded: true });
    const idle = numberOption(args["idle-minutes"]);
    const config: GuardConfig = {
      root,
      agent: agentOption(args.agent, "dev"),
      tool: capLabel(textOption(args.tool) ?? "claude", SOURCE_MAX),
      idleMinutes: idle !== null && idle > 0 ? idle : DEFAULT_IDLE_MINUTES,
      startedAt: Date.now(),
      log,
    };
    if (!args.json) printHuman(guardBanner(config));
    if (args.once) {
      let result: TickResult;
      try {
        result = withStore(root, (store) => guardTick(store, config));
      } catch (error) {
        log(`Error: ${errorText(error)}`);
        process.exitCode = 1;
        return;
      }
      if (args.json) printJson({ ok: true, ...result });
      return;
    }
    await loop(config, positiveInt(args.interval, DEFAULT_INTERVAL_MS), args.json === true);
  },
});

/** Ticks now and every interval until SIGINT/SIGTERM; tick errors are logged and never stop the loop. */
function loop(config: GuardConfig, intervalMs: number, json: boolean): Promise<void> {
  let ownRunKey: string | null = null;
  const tick = (): void => {
    try {
      const result = withStore(config.root, (store) => guardTick(store, config));
      if (result.started) ownRunKey = result.runKey;
    } catch (error) {
      log(`Error: ${errorText(error)}`);
    }
  };
  tick();
  return new Promise((resolve) => {
    const timer = setInterval(tick, intervalMs);
    const stop = (): void => {
      clearInterval(timer);
      process.off("SIGINT", stop);
      process.off("SIGTERM", stop);
      if (ownRunKey) {
        const runKey = ownRunKey;
        try {
          withStore(config.root, (store) => closeOwnSession(store, config, runKey));
        } catch (error) {
          log(`Error: ${errorText(error)}`);
        }
      }
      if (!json) printHuman(["[session:guard] Stopped."]);
      resolve();
    };
    process.on("SIGINT", stop);
    process.on("SIGTERM", stop);
  });
}
