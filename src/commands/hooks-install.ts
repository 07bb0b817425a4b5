import { defineCommand } from "../cli/command.ts";
import { resolveTargetDir } from "../core/project-root.ts";
import { InvalidAgentError, validateInstallAgent } from "../install/agents.ts";
import { dirArg, dryRunArg, finish, jsonArg, stringOrUndefined, toolArg } from "../install/cli-args.ts";
import { guardExtras, opencodeGuards, parseWith } from "../install/guards.ts";
import { runInstall } from "../install/install.ts";

export default defineCommand({
  meta: { name: "hooks:install", description: "Wire aioson into each harness's hook configuration" },
  args: {
    dir: dirArg,
    tool: toolArg,
    agent: { type: "string", description: "Agent id for telemetry and the guard (default: keep installed, else dev / auto)" },
    guard: { type: "boolean", default: true, description: "Include the context:guard PreToolUse hook (--no-guard removes it)" },
    with: { type: "string", description: "Built-in guards to add: pre-commit-guard,verify-claims,… | all | none (default: keep installed)" },
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
    const withList = stringOrUndefined(args.with);
    const selection = withList === undefined ? null : parseWith(withList);
    if (selection && !selection.ok) {
      finish({ lines: [`Invalid --with: ${selection.message}`], result: { ok: false, reason: "unknown_guard", error: selection.message } as { ok: boolean } }, json);
      return;
    }
    // A guard's agent is fixed only by an explicit --agent; otherwise the guard resolves it at run time.
    const guardAgent = explicitAgent && explicitAgent !== "auto" ? explicitAgent : null;
    const cwd = process.cwd();
    const report = runInstall({
      dir: resolveTargetDir(stringOrUndefined(args.dir) ?? cwd),
      cwd,
      tool: stringOrUndefined(args.tool),
      explicitAgent,
      guard: args.guard !== false,
      dryRun: args["dry-run"] === true,
      env: process.env,
      ...(selection ? { extra: guardExtras(selection.entries, guardAgent), pluginGuards: opencodeGuards(selection.entries) } : {}),
    });
    finish(report, json);
  },
});
