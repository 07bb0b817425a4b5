import { recordStandaloneEvent } from "../store/telemetry.ts";

/** Spec 8: a `brief_built` row, only into a store that already exists; failures never fail the brief. */
export function recordBrief(root: string, agent: string, payload: Record<string, unknown>): void {
  recordStandaloneEvent(root, {
    source: "context_brief",
    eventType: "brief_built",
    agentName: agent,
    message: `brief built for @${agent}`,
    payload,
  });
}
