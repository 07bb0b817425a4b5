import { defineCommand, type CommandDef } from "../cli/command.ts";

/**
 * `aioson context:guard` (spec 6): advisory by construction — exit 0 always, `{}` on any failure,
 * the failure itself appended to the project's hook log.
 */

const STDIN_TOTAL_MS = 2_000;

async function readEvent(args: { event?: string; "event-file"?: string }): Promise<Record<string, unknown> | null> {
  const { parsePayload, readPayloadFile, readStdinText, FIRST_BYTE_MS } = await import("../core/stdin.ts");
  let text: string;
  if (typeof args.event === "string" && args.event !== "") text = args.event;
  else {
    // --event-file: regular files only (never /dev/zero or a FIFO), with the bounds of a stdin payload.
    const file = args["event-file"];
    const read = typeof file === "string" && file !== "" ? readPayloadFile(file) : await readStdinText({ firstByteMs: FIRST_BYTE_MS, totalMs: STDIN_TOTAL_MS });
    if (read.kind === "none") return null;
    text = read.text;
  }
  const parsed = parsePayload(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  return parsed.kind === "payload" ? parsed.payload : null;
}

/**
 * `--json`: the payload in the harness's shape. Gemini CLI runs the guard after the write (AfterTool, where its
 * context reaches the model: src/install/gemini.ts); every other value answers the Claude-shaped envelope.
 */
async function wireText(tool: unknown, payload: { hookSpecificOutput?: { additionalContext?: string; permissionDecisionReason?: string } }): Promise<string> {
  // After the write a deny cannot stop it: its reason is what the model must read.
  const text = payload.hookSpecificOutput?.additionalContext ?? payload.hookSpecificOutput?.permissionDecisionReason;
  if (typeof tool !== "string" || tool.trim().toLowerCase() !== "gemini") return JSON.stringify(payload, null, 2);
  if (!text) return "{}";
  const { contextAnswer } = await import("../harness/context.ts");
  return contextAnswer("gemini", "PostToolUse", text) ?? "{}";
}

const command = defineCommand({
  meta: { name: "context:guard", description: "Inject the project rules that govern a pending file write" },
  args: {
    dir: { type: "positional", required: false, description: "Project directory (default: cwd)" },
    tool: { type: "string", default: "claude", description: "Output adapter: gemini answers Gemini CLI's AfterTool shape; every other value the Claude-shaped envelope" },
    agent: { type: "string", alias: "a", default: "auto", description: "Agent id, or auto to resolve it at run time" },
    event: { type: "string", description: "The pending tool event as a JSON string" },
    "event-file": { type: "string", description: "Path of a JSON file with the pending tool event" },
    jev: { type: "boolean", default: true, description: "Ask the judge about vocabulary-only rules (--no-jev: never)" },
    json: { type: "boolean", alias: "j", default: false, description: "Print the wire payload" },
  },
  async run({ args }) {
    const { hooksSwitchedOff } = await import("../core/switch.ts");
    if (hooksSwitchedOff()) {
      // Switched off (AIOSON=0): the answer of a write no rule governs, before the event or the project is read.
      console.log(args.json ? await wireText(args.tool, {}) : "context:guard: switched off (AIOSON=0) — no rule checked");
      process.exitCode = 0;
      return;
    }
    const { resolveUserRoot, isProjectRoot } = await import("../core/project-root.ts");
    let root: string | null = null;
    let result: { payload: object; rules: string[]; confidence: string | null; denied?: boolean } = { payload: {}, rules: [], confidence: null };
    try {
      const start = typeof args.dir === "string" && args.dir !== "" ? args.dir : process.cwd();
      const candidate = resolveUserRoot(start);
      root = isProjectRoot(candidate) ? candidate : null;
      const event = await readEvent(args);
      if (root && event) {
        const { runGuard } = await import("../guard/pipeline.ts");
        result = await runGuard({ root, event, agentOption: args.agent, env: process.env, jev: args.jev !== false });
      }
    } catch (error) {
      const { logHookProblem } = await import("../core/hook-log.ts");
      logHookProblem(root, "context:guard", error);
      result = { payload: {}, rules: [], confidence: null };
    }
    if (args.json) console.log(await wireText(args.tool, result.payload));
    else {
      // A person runs it by hand: the rules' paths are the project's, shown on a terminal.
      const { terminalText } = await import("../text/terminal.ts");
      const rules = terminalText(result.rules.join(", "));
      if (result.denied) console.log(`context:guard denied the write: ${rules}`);
      else if (result.rules.length > 0) console.log(`context:guard injected ${result.rules.length} rule(s): ${rules} (confidence ${result.confidence})`);
      else console.log("context:guard: no salient project rule for this change");
    }
    process.exitCode = 0;
  },
});

export default command as CommandDef;
