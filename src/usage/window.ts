/**
 * The rows context:usage reads over its window (spec 7): briefs, loads, session ends and guard injections. Named
 * once here for its reports and for runtime:prune, which keeps them for context:usage's default window.
 */

/** context:usage's default window (spec 7.1), in days. */
export const USAGE_DEFAULT_DAYS = 30;

export const SESSION_END_TYPES: readonly string[] = ["session_ended", "session_closed", "agent_done"];

/** Event types of the rows context:usage reads (besides every row of source LOAD_SOURCE). */
export const USAGE_EVENT_TYPES: readonly string[] = ["brief_built", "guard_injected", ...SESSION_END_TYPES];

export const LOAD_SOURCE = "context_load";
