import { defineCommand } from "../cli/command.ts";
import { existsSync } from "node:fs";
import { isAbsolute, relative, resolve } from "node:path";
import { CommandError, printJson } from "../core/output.ts";
import { userProgram } from "../core/programs.ts";
import { readRegularFile, refusalText } from "../core/regular-file.ts";
import { say } from "../human/lazy.ts";
import { parsePlanSteps, type PlanStep } from "../live/plan.ts";
import { DIR_ARG, JSON_ARG, pointerAgent, requiredAgent, sessionKeyOption, textOption, userRoot } from "../runtime/args.ts";
import {
  LIVE_TOOLS,
  publishLiveStart,
  recordChildPidRow,
  recordChildPidState,
  startLiveRows,
  type LiveTool,
} from "../session/live-start.ts";
import { closeStore, openStore, withStoreTransaction } from "../store/db.ts";

function liveTool(value: unknown): LiveTool {
  const tool = textOption(value);
  const hint = { hint: `Name the harness to start, e.g. aioson live:start . --tool=${LIVE_TOOLS[0]}`, specWorded: true };
  if (tool === null) throw new CommandError(`--tool is required (${LIVE_TOOLS.join(", ")}).`, hint);
  const found = LIVE_TOOLS.find((name) => name === tool.toLowerCase());
  if (!found) throw new CommandError(`Unsupported live tool: ${tool}`, { hint: `Use --tool=${LIVE_TOOLS.join(", --tool=")}.`, specWorded: true });
  return found;
}

const PLAN_MAX_BYTES = 4 * 1024 * 1024;

/** `--plan=<file>`: relative to the cwd, else to the project root; stored project-relative when inside it. */
function readPlan(root: string, file: string | null): { planRef: string | null; planSteps: PlanStep[] } {
  if (file === null) return { planRef: null, planSteps: [] };
  const path = [resolve(file), resolve(root, file)].find((candidate) => existsSync(candidate));
  if (!path) throw new CommandError(`Plan file not found: ${file}`, { hint: `It is looked for from the current folder, then from the project root (${root}): check the path.` });
  // A regular file only (a FIFO would hang the command), bounded like any project file aioson reads.
  const read = readRegularFile(path, PLAN_MAX_BYTES);
  if (read.kind !== "ok") throw new CommandError(`Plan file not readable: ${file} (${refusalText(read)})`, { hint: `Point --plan at a regular text file of at most ${PLAN_MAX_BYTES / 1024 / 1024} MiB.` });
  const text = read.text;
  const inside = relative(root, path);
  const planRef = inside && !inside.startsWith("..") && !isAbsolute(inside) ? inside : path;
  return { planRef, planSteps: parsePlanSteps(text) };
}

export default defineCommand({
  meta: { name: "live:start", description: "Open a live session for an agent (minimal)" },
  args: {
    dir: DIR_ARG,
    tool: { type: "string", description: "claude, codex or opencode (required)" },
    agent: { type: "string", description: "Agent id (default product)" },
    launch: { type: "boolean", default: true, description: "Launch the harness (--no-launch: only open the session)" },
    title: { type: "string", description: "Session title" },
    goal: { type: "string", description: "Session goal" },
    plan: { type: "string", description: "Plan file whose steps the session tracks" },
    session: { type: "string", description: "Session key to use" },
    message: { type: "string", description: "Message of the session_started event" },
    "tool-bin": { type: "string", description: "Harness binary (default: the tool name)" },
    json: JSON_ARG,
  },
  async run({ args }) {
    const tool = liveTool(args.tool);
    const agent = textOption(args.agent) === null ? "product" : pointerAgent(requiredAgent(args.agent, "--agent needs a value"));
    if (args.json && args.launch) throw new CommandError("--json requires --no-launch for live:start because foreground launch is interactive.", { hint: "Add --no-launch, or drop --json.", specWorded: true });
    const bin = textOption(args["tool-bin"]) ?? tool;
    const root = userRoot(args.dir);
    // Never a program a repository ships: a name is looked up on PATH outside the project and the current folder's.
    const binPath = args.launch ? userProgram(bin, process.cwd(), process.env, [root, process.cwd()]) : null;
    if (args.launch && !binPath) throw new CommandError(`Tool binary not found on PATH: ${bin}`, { hint: "Put it on PATH, name it with --tool-bin=<path>, or open the session without starting it: --no-launch." });
    const input = {
      root,
      agent,
      tool,
      title: textOption(args.title),
      goal: textOption(args.goal),
      sessionKey: sessionKeyOption(args.session),
      message: textOption(args.message),
      ...readPlan(root, textOption(args.plan)),
    };
    const store = openStore(root);
    if (!store) throw new Error("The runtime store could not be opened.");
    let outcome;
    try {
      outcome = withStoreTransaction(store, () => startLiveRows(store.db, input));
      publishLiveStart(store.db, input, outcome);
    } finally {
      closeStore(store);
    }
    const result = {
      ok: true,
      targetDir: root,
      dbPath: store.path,
      agent: `@${agent}`,
      tool,
      taskKey: outcome.taskKey,
      runKey: outcome.runKey,
      sessionKey: outcome.sessionKey,
      pid: outcome.pid,
      processState: outcome.processState,
      reused: outcome.reused,
      open: true,
      autoClosed: outcome.autoClosed ? { runKey: outcome.autoClosed.run.run_key, reason: outcome.autoClosed.reason } : null,
    };
    if (args.json) {
      printJson(result);
      return;
    }
    if (outcome.autoClosed) await say("info", `Previous live session closed: ${outcome.autoClosed.run.run_key} (${outcome.autoClosed.reason})`);
    await say("success", `Live session ${outcome.reused ? "reused" : "started"}: ${outcome.sessionKey} | @${agent} | ${tool} | run: ${outcome.runKey} (${store.path})`);
    if (input.planSteps.length > 0) await say("info", `Plan: ${input.planSteps.length} steps from ${input.planRef}`);
    if (!binPath) return;
    process.exitCode = await launchHarness(root, binPath, outcome.sessionKey, outcome.taskKey, agent);
  },
});

/** Runs the harness in the foreground with the session exported (spec 2.6), recording its pid. */
async function launchHarness(root: string, binPath: string, sessionKey: string, taskKey: string, agent: string): Promise<number> {
  const child = Bun.spawn([binPath], {
    cwd: root,
    env: { ...process.env, AIOSON_LIVE_SESSION: sessionKey, AIOSON_AGENT: agent },
    stdio: ["inherit", "inherit", "inherit"],
  });
  const store = openStore(root);
  if (store) {
    try {
      withStoreTransaction(store, () => recordChildPidRow(store.db, taskKey, child.pid));
    } finally {
      closeStore(store);
    }
  }
  recordChildPidState(root, sessionKey, child.pid);
  return await child.exited;
}
