/**
 * The shared shell of every `guard:*` command: read the payload, find the project, judge, answer in the
 * harness's dialect. A guard never breaks the agent: any failure is logged (inside a project) and answered with
 * the guard's pass output, exit status 0.
 */
import { defineCommand, type ArgsDef, type CommandDef } from "../cli/command.ts";
import { isAbsolute, resolve } from "node:path";
import { stripQuotes } from "../core/agent.ts";
import { resolveHookRoot } from "../core/project-root.ts";
import { hooksSwitchedOff } from "../core/switch.ts";
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
  /** False when the payload was longer than its bounds and some of it was dropped (src/core/payload-text.ts). */
  whole: boolean;
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

type Prepared = { dir: string; root: string | null; payload: Payload | null; whole: boolean; harness: Harness; agent: string | null };

async function prepare(args: Record<string, unknown>): Promise<Prepared> {
  const read = await readHookPayload();
  const payload = read.kind === "payload" ? read.payload : null;
  const dir = startDir(args.dir, payload);
  return { dir, root: resolveHookRoot(dir), payload, whole: read.kind !== "payload" || read.whole, harness: detectHarness(args.tool ?? args.source, payload), agent: agentOf(args.agent, payload) };
}

/** One guard's judgement of a prepared event (its kit.json section, its scope), with how to render it. */
async function judgeOne(spec: GuardSpec, prepared: Prepared): Promise<{ decision: Decision; render: RenderOptions }> {
  let section: GuardSection = {};
  try {
    section = await loadGuardSection(prepared.root, spec.name);
  } catch (error) {
    logHookProblem(prepared.root, `guard:${spec.name}`, error);
  }
  if (!prepared.payload || !inScope(section, prepared.agent)) return { decision: spec.idle ?? PASS, render: {} };
  const context: GuardContext = { guard: spec.name, dir: prepared.dir, root: prepared.root, payload: prepared.payload, whole: prepared.whole, harness: prepared.harness, section, agent: prepared.agent, render: {} };
  const decision = await spec.judge(context);
  if (prepared.root) await recordDecision(prepared.root, spec.name, decision, prepared.harness, prepared.payload, prepared.agent);
  return { decision, render: context.render };
}

export async function runGuard(spec: GuardSpec, args: Record<string, unknown>): Promise<void> {
  const idle = spec.idle ?? PASS;
  let root: string | null = null;
  // Until the payload says otherwise, the dialect the hook line names: a guard that is switched off or fails before
  // it has read the payload still answers in it (an empty answer is a deny to Antigravity's PreToolUse).
  let harness: Harness = detectHarness(args.tool ?? args.source, null);
  let event = spec.events[0] ?? "";
  let decision: Decision = idle;
  let render: RenderOptions = {};
  // Switched off (AIOSON=0): the idle answer, with stdin and the project left unread.
  if (!hooksSwitchedOff()) {
    try {
      const prepared = await prepare(args);
      root = prepared.root;
      harness = prepared.harness;
      const named = eventName(prepared.payload);
      if (named && spec.events.includes(named)) event = named;
      ({ decision, render } = await judgeOne(spec, prepared));
    } catch (error) {
      logHookProblem(root, `guard:${spec.name}`, error);
      decision = idle;
    }
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

/**
 * Several Stop guards in one hook, their blocking reasons joined into one: for a harness that hands the model only one
 * of several blocking Stop answers (Copilot CLI, real-harnesses §5). A guard that fails is logged and passes.
 */
export async function runStopGuards(specs: readonly GuardSpec[], args: Record<string, unknown>): Promise<void> {
  // Switched off (AIOSON=0): no reason to join, so nothing to say.
  if (hooksSwitchedOff()) return;
  let root: string | null = null;
  let harness: Harness = "claude";
  const reasons: string[] = [];
  try {
    const prepared = await prepare(args);
    root = prepared.root;
    harness = prepared.harness;
    for (const spec of specs) {
      try {
        const { decision } = await judgeOne(spec, prepared);
        if (decision.kind === "block") reasons.push(decision.reason);
      } catch (error) {
        logHookProblem(root, `guard:${spec.name}`, error);
      }
    }
  } catch (error) {
    logHookProblem(root, "guard:stop-guards", error);
  }
  const text = reasons.length > 0 ? renderDecision(harness, "Stop", { kind: "block", reason: reasons.join("\n\n") }) : null;
  if (text !== null) console.log(text);
  process.exitCode = 0;
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
