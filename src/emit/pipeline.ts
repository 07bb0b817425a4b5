/**
 * hooks:emit (spec 4.2). Every skip decision (no project, no payload, ignored tool, a prompt that
 * activates nothing) is taken before SQLite is even loaded; the store half is imported only when
 * there is something to write. Nothing here throws: failures become `{ok:false}` plus a hook-log line.
 */
import { stripQuotes } from "../core/agent.ts";
import { logHookProblem } from "../core/hook-log.ts";
import { capLabel, SOURCE_MAX } from "../core/labels.ts";
import { resolveHookRoot } from "../core/project-root.ts";
import { readHookPayload } from "../core/stdin.ts";
import { adapterFor, deliversCheckpointOn, harnessNotices, owesCheckpoints, routePayload, stdinLimitsFor } from "../harness/index.ts";
import { checkpointOwed } from "../recap/pending-path.ts";
import { classify, eventName, isKnownEvent } from "./classify.ts";
import { COMPACTION_CONFIRMED } from "../recap/markers.ts";
import type { EmitResult, ThenResult } from "./persist.ts";

const COMMAND = "hooks:emit";

export type EmitOptions = {
  dir: string;
  /** Install agent, already normalised (`agentOption`). */
  agent: string;
  /** `--source` as given. */
  source: string | undefined;
  event: string | undefined;
  then: string | undefined;
  /** `AIOSON_LIVE_SESSION`. */
  envSession: string | undefined;
};

/** `--source`: quotes stripped, trimmed, lower-cased, capped (a label); default `claude` (spec 4.1). */
export function sourceOption(value: string | undefined): string {
  const source = typeof value === "string" ? stripQuotes(value).toLowerCase() : "";
  return source ? capLabel(source, SOURCE_MAX) : "claude";
}

function flagText(value: string | undefined): string | null {
  if (typeof value !== "string") return null;
  const text = stripQuotes(value);
  return text === "" ? null : text;
}

/** `output`: what the hook prints for the harness (an owed checkpoint), when there is something. */
function withOutput(result: EmitResult, output: string | null): EmitResult {
  return output === null ? result : { ...result, output };
}

/** Events after which the recorded events are exported, when an OpenTelemetry destination is configured. */
const EXPORT_EVENTS: ReadonlySet<string> = new Set(["Stop", "SessionEnd"]);

export async function runHooksEmit(options: EmitOptions): Promise<EmitResult> {
  const root = resolveHookRoot(options.dir);
  if (!root) return { ok: true, skipped: true, reason: "no-project-root" };
  const seen: { name: string | null } = { name: null };
  const result = await emitInRoot(root, options, seen);
  // After the events are committed: a turn's end sends them on (detached, never awaited; src/otel/trigger.ts, loaded
  // only here: a tool call, the usual hook, pays nothing for it).
  if (seen.name !== null && EXPORT_EVENTS.has(seen.name)) (await import("../otel/trigger.ts")).startAutoExport(root);
  // A session's end starts the day's automatic prune, detached too (store/prune-trigger.ts, loaded only here).
  if (seen.name === "SessionEnd") (await import("../store/prune-trigger.ts")).startAutoPrune(root);
  return result;
}

/** Spec 4.2 steps 2–9 in a project root; `seen.name` receives the event name once it is known. */
async function emitInRoot(root: string, options: EmitOptions, seen: { name: string | null }): Promise<EmitResult> {
  try {
    const flagSource = sourceOption(options.source);
    const read = await readHookPayload(stdinLimitsFor(flagSource));
    if (read.kind === "none") logHookProblem(root, COMMAND, `no payload (${read.reason})`);
    const raw = read.kind === "payload" ? read.payload : {};
    const route = routePayload(flagSource, raw);
    if (route.skip) return { ok: true, skipped: true, reason: route.skip };
    const source = route.source;
    for (const notice of harnessNotices(source, raw)) logHookProblem(root, COMMAND, notice);
    const event = adapterFor(source)(raw);
    const flagEvent = flagText(options.event);
    const name = eventName(flagEvent, event);
    seen.name = name;
    if (read.kind === "payload") {
      if (name === null) logHookProblem(root, COMMAND, "payload names no event (no hook_event_name, tool_name or prompt)");
      else if (!isKnownEvent(name)) logHookProblem(root, COMMAND, `unknown event: ${name.slice(0, 80)}`);
      else if ((name === "PostToolUse" || name === "PostToolUseFailure") && !event.tool) logHookProblem(root, COMMAND, `${name} without tool_name`);
    }
    const classified = classify({ root, source, eventName: name }, event);
    // Harnesses whose compactions no hook follows: one marker per compaction, the checkpoint owed to a later hook.
    // Loaded only when there is a compaction to count or a checkpoint owed to this hook (one lstat).
    const involved = owesCheckpoints(source) && (classified.some((record) => record.eventType === "compaction") || (deliversCheckpointOn(source, name) && checkpointOwed(root, source, event.sessionId)));
    const checkpoints = involved ? await import("./checkpoint.ts") : null;
    const records = checkpoints ? checkpoints.onceCompacted(root, source, event, classified) : classified;
    const owed = async () => (checkpoints ? await checkpoints.owedCheckpoint(root, source, name, event, options.agent) : null);
    const sessionEnd = name === "SessionEnd";
    const thenFlag = flagText(options.then);
    // One turn end per real turn: a Stop that continues a turn a Stop hook blocked (`stop_hook_active`) is the
    // same turn, already counted by the Stop that was blocked (context:usage and status count `agent_done`).
    // A sub-agent's stop (Copilot CLI sends it to the Stop handlers too) ends no turn either.
    const thenAgentDone = thenFlag === "agent:done" && !sessionEnd && !event.stopHookActive && name !== "SubagentStop";
    // What `--then` did not run, and why (an unsupported command, or the continuation of a blocked Stop).
    const notRun: ThenResult | null =
      thenFlag !== null && thenFlag !== "agent:done"
        ? { command: thenFlag, ok: false, reason: "unsupported" }
        : thenFlag === "agent:done" && !sessionEnd && event.stopHookActive
          ? { command: thenFlag, ok: true, reason: "stop_hook_active" }
          : null;
    if (records.length === 0 && !thenAgentDone) return withOutput({ ok: true, skipped: true, ...(notRun ? { then: notRun } : {}) }, await owed());

    const { persistEmit } = await import("./persist.ts");
    const result = persistEmit(
      {
        root,
        agent: options.agent,
        source,
        harnessSessionId: event.sessionId,
        durationMs: event.durationMs,
        records,
        sessionEnd,
        // A confirmation only confirms a marker of an open session; it never opens one.
        attachOnly: sessionEnd || (records.length > 0 && records.every((record) => record.eventType === COMPACTION_CONFIRMED)),
        thenAgentDone,
        envSession: options.envSession,
      },
      (error) => logHookProblem(root, `${COMMAND} --then=agent:done`, error),
    );
    return withOutput(notRun && result.ok && !result.skipped ? { ...result, then: notRun } : result, await owed());
  } catch (error) {
    logHookProblem(root, COMMAND, error);
    return { ok: false };
  }
}
