import type { TaskChange } from "../harness/types.ts";

/** What hooks:emit stores: one row per record, one ndjson line per record. */
export type EmitRecord = {
  eventType: string;
  message: string;
  /** The `tool_name` column and the ndjson `tool` field. */
  toolName: string | null;
  /** Payload besides `written_by` and `harness_session_id` (added when stored). */
  payload: Record<string, unknown>;
  /** Project-relative file of an artifact record. */
  file?: string;
  /** Canonical id of the agent an `agent_activated` record names. */
  activatedAgent?: string;
  /** A task-by-task plan change: folded into the session's plan when stored, dropped when it changes nothing. */
  taskChange?: TaskChange;
};
