import { defineCommand, type CommandDef } from "../cli/command.ts";
import { printJson } from "../core/output.ts";
import { sayLines } from "../human/lazy.ts";

/** `aioson context:brief` (spec 8, minimal): the brief of spec 6.5 and its `brief_built` telemetry. */

const command = defineCommand({
  meta: { name: "context:brief", description: "Select the project rules relevant to a task" },
  args: {
    dir: { type: "positional", required: false, description: "Project directory (default: cwd)" },
    agent: { type: "string", alias: "a", default: "dev", description: "Agent id" },
    mode: { type: "string", default: "planning", description: "planning or executing" },
    task: { type: "string", default: "", description: "What the agent is about to do" },
    paths: { type: "string", default: "", description: "Target paths, comma separated" },
    feature: { type: "string", description: "Feature slug" },
    semantic: { type: "boolean", default: true, description: "Lexical semantic matching (--no-semantic: off)" },
    recall: { type: "boolean", default: true, description: "Accepted for compatibility; memory recall is not part of this build" },
    json: { type: "boolean", alias: "j", default: false, description: "Print the brief as JSON" },
  },
  async run({ args }) {
    const { resolveUserRoot } = await import("../core/project-root.ts");
    const { agentOption } = await import("../core/agent.ts");
    const { buildBrief } = await import("../brief/engine.ts");
    const { briefJson, briefLines, briefTelemetry } = await import("../brief/output.ts");
    const root = resolveUserRoot(typeof args.dir === "string" && args.dir !== "" ? args.dir : process.cwd());
    const agent = agentOption(args.agent);
    const brief = buildBrief({
      root,
      agent,
      mode: args.mode === "executing" ? "executing" : "planning",
      task: typeof args.task === "string" ? args.task : "",
      paths: (typeof args.paths === "string" ? args.paths : "").split(",").map((p) => p.trim()).filter(Boolean),
      feature: typeof args.feature === "string" ? args.feature : "",
      semantic: args.semantic !== false,
    });
    const { recordBrief } = await import("../brief/record.ts");
    recordBrief(root, agent, briefTelemetry(brief));
    if (args.json) printJson(briefJson(brief));
    else await sayLines(briefLines(brief));
  },
});

export default command as CommandDef;
