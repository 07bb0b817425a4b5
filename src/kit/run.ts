/**
 * The shared shell of every `guard:*` command: read the payload, find the project, judge, answer in the
 * harness's dialect. A guard never breaks the agent: any failure is logged (inside a project) and answered with
 * the guard's pass output, exit status 0.
 */
import { defineCommand, type ArgsDef, type CommandDef } from "../cli/command.ts";
import { isAbsolute, resolve } from "node:path";
import { stripQuotes } from "../core/agent.ts";
import { resolveHookRoot } from "../core/project-root.ts";
import { logHookProblem } from "../core/hook-log.ts";
import { readHookPayload } from "../core/stdin.ts";
import { inScope, loadGuardSection, type GuardName, type GuardSection } from "./config.ts";
import { detectHarness, PASS, renderDecision, type Decision, type Harness, type RenderOptions } from "./dialect.ts";
import { eventName, sessionId, stringField, toolName, type Payload } from "./payload.ts";

export type GuardContext = {
  guard: GuardName;
  /** The directory the hook was started for (positional `dir`, else the payload's `cwd`, else the process cwd). */
  dir: string;
  /** The AIOSON project root above `dir`, or null (the guard still judges; it writes and logs nothing). */
  root: string | null;
  payload: Payload | null;
  harness: Harness;
  section: GuardSection;
  agent: string | null;
  /** Set by a guard to tune how its decision is rendered. */
  render: RenderOptions;
};

export type GuardSpec = {
  name: GuardName;
  description: string;
  /** The event the guard answers when the payload does not say (and the only events it accepts). */
  events: readonly string[];
  /** What a guard prints when it has nothing to say (subagent-audit must answer `{}`). */
  idle?: Decision;
  judge: (context: GuardContext) => Decision | Promise<Decision>;
};

function startDir(positional: unknown, payload: Payload | null): string {
  if (typeof positional === "string" && positional.trim()) return resolve(positional);
  const cwd = stringField(payload, "cwd");
  if (cwd && isAbsolute(cwd)) return cwd;
  return process.cwd();
}

/**
 * The agent a guard is scoped by (kit.json `agents`): an explicit `--agent` (not `auto`), else the harness event's
 * agent, else `AIOSON_AGENT` (set by whoever launches a session for one agent, hooks-behavior §6.3).
 */
function agentOf(flag: unknown, payload: Payload | null): string | null {
  const explicit = typeof flag === "string" ? stripQuotes(flag) : "";
  if (explicit && explicit !== "auto") return explicit;
  const fromPayload = stringField(payload, "agent_type", "agentType", "agent", "agent_name");
  if (fromPayload) return fromPayload;
  return stripQuotes(process.env.AIOSON_AGENT ?? "") || null;
}

export async function runGuard(spec: GuardSpec, args: Record<string, unknown>): Promise<void> {
  const idle = spec.idle ?? PASS;
  let root: string | null = null;
  let harness: Harness = "claude";
  let event = spec.events[0] ?? "";
  let decision: Decision = idle;
  let render: RenderOptions = {};
  try {
    const read = await readHookPayload();
    const payload = read.kind === "payload" ? read.payload : null;
    const dir = startDir(args.dir, payload);
    root = resolveHookRoot(dir);
    harness = detectHarness(args.tool ?? args.source, payload);
    const named = eventName(payload);
    if (named && spec.events.includes(named)) event = named;
    let section: GuardSection = {};
    try {
      section = await loadGuardSection(root, spec.name);
    } catch (error) {
      logHookProblem(root, `guard:${spec.name}`, error);
    }
    const agent = agentOf(args.agent, payload);
    if (payload && inScope(section, agent)) {
      const context: GuardContext = { guard: spec.name, dir, root, payload, harness, section, agent, render: {} };
      decision = await spec.judge(context);
      render = context.render;
      if (root) await recordDecision(root, spec.name, decision, harness, payload, agent);
    }
  } catch (error) {
    logHookProblem(root, `guard:${spec.name}`, error);
    decision = idle;
  }
  const text = renderDecision(harness, event, decision.kind === "pass" ? idle : decision, render);
  if (text !== null) console.log(text);
  process.exitCode = 0;
}

/** The decisions worth a record (kit/decisions.ts): denies, asks and blocks; passes and context are none. */
function verdictOf(decision: Decision): { verdict: "deny" | "ask" | "block"; reason: string } | null {
  if (decision.kind === "block") return { verdict: "block", reason: decision.reason };
  if (decision.kind === "permission" && decision.permission !== "allow") return { verdict: decision.permission, reason: decision.reason };
  return null;
}

async function recordDecision(root: string, guard: GuardName, decision: Decision, harness: Harness, payload: Payload, agent: string | null): Promise<void> {
  const found = verdictOf(decision);
  if (!found) return;
  const { recordGuardDecision } = await import("./decisions.ts");
  recordGuardDecision(root, { guard, decision: found.verdict, reason: found.reason, harness, tool: toolName(payload) || null, sessionId: sessionId(payload) || null, agent });
}

/** A citty command for a guard: `aioson guard:<name> [dir] [--tool=<harness>] [--agent=<id>]`. */
const GUARD_ARGS: ArgsDef = {
  dir: { type: "positional", required: false, description: "Directory the hook runs for (default: payload cwd, else current directory)" },
  tool: { type: "string", description: "Harness dialect: claude, codex, copilot, opencode, antigravity (default: from the payload)" },
  source: { type: "string", description: "Alias of --tool" },
  agent: { type: "string", description: "Agent the hook is installed for (scopes the guard with kit.json `agents`)" },
};

export function guardCommand(spec: GuardSpec): CommandDef {
  return defineCommand({
    meta: { name: `guard:${spec.name}`, description: spec.description },
    args: GUARD_ARGS,
    run: ({ args }) => runGuard(spec, args as Record<string, unknown>),
  });
}
