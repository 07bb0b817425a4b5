import type { CommandDef } from "citty";
import { agentOption } from "../core/agent.ts";
import { printJson } from "../core/output.ts";
import { hooksSwitchedOff } from "../core/switch.ts";
import { runHooksEmit } from "../emit/pipeline.ts";

function stringArg(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

/**
 * Spec 4: the telemetry hook. Always exit 0; silent unless --json, or unless it hands an owed checkpoint to a harness
 * that no hook follows a compaction in (src/emit/checkpoint.ts): then it prints that harness's context answer.
 */
const command: CommandDef = {
  meta: { name: "hooks:emit", description: "Record a harness hook event (reads the payload on stdin)" },
  args: {
    dir: { type: "positional", required: false, description: "Directory the project-root walk starts from (default: cwd)" },
    agent: { type: "string", description: "Install agent that owns the hooks session (default: dev)" },
    source: { type: "string", description: "Harness: claude, codex, antigravity, opencode, copilot, gemini (default: claude)" },
    event: { type: "string", description: "Override the payload's event name (e.g. SessionEnd)" },
    then: { type: "string", description: "agent:done — record the turn end in the same process" },
    json: { type: "boolean", alias: "j", description: "Print the result object" },
  },
  async run({ args }) {
    let result: Record<string, unknown>;
    if (hooksSwitchedOff()) {
      if (args.json) printJson({ ok: true, skipped: true, reason: "switched-off" });
      process.exitCode = 0;
      return;
    }
    try {
      result = await runHooksEmit({
        dir: typeof args.dir === "string" && args.dir !== "" ? args.dir : process.cwd(),
        agent: agentOption(args.agent),
        source: stringArg(args.source),
        event: stringArg(args.event),
        then: stringArg(args.then),
        envSession: process.env.AIOSON_LIVE_SESSION,
      });
    } catch {
      result = { ok: false };
    }
    if (args.json) printJson(result);
    else if (typeof result.output === "string") console.log(result.output);
    process.exitCode = 0;
  },
};

export default command;
