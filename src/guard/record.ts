import type { Confidence } from "../brief/engine.ts";
import { recordStandaloneEvent } from "../store/telemetry.ts";
import type { ViolationBlock } from "./enforce.ts";
import type { JevReport } from "./jev.ts";

/** Spec 6.12: one standalone `guard_injected` row per injection, only into a store that already exists. */

export type InjectionRecord = {
  agent: string;
  tool: string;
  rel: string;
  sessionId: string | null;
  rules: string[];
  violations: readonly ViolationBlock[];
  confidence: Confidence;
  jev: JevReport;
};

export function recordInjection(root: string, record: InjectionRecord): void {
  recordStandaloneEvent(root, {
    source: "context_guard",
    eventType: "guard_injected",
    phase: "context_guard",
    agentName: record.agent,
    message: `guard injected ${record.rules.length} rule(s) into ${record.rel}`,
    harnessSessionId: record.sessionId,
    payload: {
      file: record.rel,
      tool: record.tool,
      agent: record.agent,
      rules: record.rules,
      violations: record.violations.map((block) => ({ rule: block.owner.rel, checker: block.checker, kind: block.kind, keys: block.keys })),
      confidence: record.confidence,
      jev: record.jev,
    },
  });
}
