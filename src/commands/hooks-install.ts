import { defineCommand, type ArgsDef } from "citty";
import { resolveTargetDir } from "../core/project-root.ts";
import { InvalidAgentError, validateInstallAgent } from "../install/agents.ts";
import { dirArg, dryRunArg, finish, jsonArg, stringOrUndefined, toolArg } from "../install/cli-args.ts";
import { runInstall } from "../install/install.ts";

export default defineCommand<ArgsDef>({
  meta: { name: "hooks:install", description: "Wire aioson into each harness's hook configuration" },
  args: {
    dir: dirArg,
    tool: toolArg,
    agent: { type: "string", description: "Agent id for telemetry and the guard (default: keep installed, else dev / auto)" },
    guard: { type: "boolean", default: true, description: "Include the context:guard PreToolUse hook (--no-guard removes it)" },
    "dry-run": dryRunArg,
    json: jsonArg,
  },
  run({ args }) {
    const json = args.json === true;
    const rawAgent = stringOrUndefined(args.agent);
    let explicitAgent: string | null = null;
    if (rawAgent !== undefined) {
      try {
        explicitAgent = validateInstallAgent(rawAgent);
      } catch (error) {
        if (!(error instanceof InvalidAgentError)) throw error;
        finish({ lines: [`Invalid agent name: ${error.message}`], result: { ok: false, reason: "invalid_agent_name", error: error.message } as { ok: boolean } }, json);
        return;
      }
    }
    const cwd = process.cwd();
    const report = runInstall({
      dir: resolveTargetDir(stringOrUndefined(args.dir) ?? cwd),
      cwd,
      tool: stringOrUndefined(args.tool),
      explicitAgent,
      guard: args.guard !== false,
      dryRun: args["dry-run"] === true,
      env: process.env,
    });
    finish(report, json);
  },
});
