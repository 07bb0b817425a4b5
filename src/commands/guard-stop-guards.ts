/**
 * `aioson guard:stop-guards [dir] --guards=<a,b,…>`: the chosen Stop guards in one hook, their blocking reasons joined
 * (src/kit/run.ts runStopGuards). Installed for GitHub Copilot CLI, which hands the model only one of several blocking
 * Stop answers.
 */
import { defineCommand, type ArgsDef, type CommandDef } from "../cli/command.ts";
import { STOP_GUARDS } from "../kit/guards.ts";
import { runStopGuards } from "../kit/run.ts";

const args: ArgsDef = {
  dir: { type: "positional", required: false, description: "Directory the hook runs for (default: payload cwd, else current directory)" },
  guards: { type: "string", description: "Comma list of Stop guards, in the order their reasons are given" },
  tool: { type: "string", description: "Harness dialect: claude, codex, copilot, opencode, antigravity, gemini (default: from the payload)" },
  source: { type: "string", description: "Alias of --tool" },
  agent: { type: "string", description: "Agent the hook is installed for (scopes each guard with kit.json `agents`)" },
};

const command = defineCommand({
  meta: { name: "guard:stop-guards", description: "Run several Stop guards in one hook and join their reasons" },
  args,
  run: ({ args: given }) => {
    const list: unknown = (given as Record<string, unknown>).guards;
    const names = typeof list === "string" ? list.split(",").map((name) => name.trim().replace(/^guard:/, "").toLowerCase()) : [];
    const specs = [...new Set(names)].flatMap((name) => STOP_GUARDS.filter((spec) => spec.name === name));
    return runStopGuards(specs, given as Record<string, unknown>);
  },
});

export default command as CommandDef;
