import { defineCommand } from "../cli/command.ts";
import { resolveTargetDir } from "../core/project-root.ts";
import { InvalidAgentError, validateInstallAgent } from "../install/agents.ts";
import { dirArg, dryRunArg, finish, jsonArg, stringOrUndefined, toolArg } from "../install/cli-args.ts";
import { runUninstall } from "../install/install.ts";

/** The header's agent: a valid `--agent`, else dev (the flag changes nothing else on uninstall). */
function headerAgent(value: string | undefined): string {
  if (value === undefined) return "dev";
  try {
    const id = validateInstallAgent(value);
    return id === "auto" ? "dev" : id;
  } catch (error) {
    if (error instanceof InvalidAgentError) return "dev";
    throw error;
  }
}

export default defineCommand({
  meta: { name: "hooks:uninstall", description: "Remove aioson's handlers from each harness's configuration" },
  args: {
    dir: dirArg,
    tool: { ...toolArg, description: "claude (default)|codex|antigravity|opencode|copilot|all or a comma list" },
    agent: { type: "string", description: "Only used for the header line" },
    "dry-run": dryRunArg,
    json: jsonArg,
  },
  run({ args }) {
    const cwd = process.cwd();
    const report = runUninstall({
      dir: resolveTargetDir(stringOrUndefined(args.dir) ?? cwd),
      cwd,
      tool: stringOrUndefined(args.tool),
      agent: headerAgent(stringOrUndefined(args.agent)),
      dryRun: args["dry-run"] === true,
      env: process.env,
    });
    finish(report, args.json === true);
  },
});
