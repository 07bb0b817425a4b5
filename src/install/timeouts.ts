/**
 * How long the harness lets each of our handlers run, in seconds (Gemini CLI's unit is the millisecond: `* 1000`).
 * Without one a handler gets the harness's default, 10 minutes in Claude Code and Codex, on the agent's critical path.
 * Each is above what the command bounds itself to (a payload read within 5 s, a locked store waited for 5 s, the judge
 * asked for 3 s), so a harness only ever cuts a call that hangs; every harness fails open on a timed-out handler.
 * Codex keeps its spec 9.6 values (src/install/codex.ts): its trust hash covers `timeout`, and a change makes every
 * user review the hooks again. The guard kit's lines carry their own (src/kit/catalog.ts).
 */
import type { CommandKind } from "./commands.ts";

export const HANDLER_TIMEOUT_SECONDS: Readonly<Record<CommandKind, number>> = {
  // One store write.
  telemetry: 10,
  // The write, then agent:done's.
  turnEnd: 15,
  // The agent is exiting and waits: Claude Code raises its 1.5 s SessionEnd budget to the largest handler timeout.
  sessionEnd: 3,
  // The recap reads the store and the transcript.
  checkpoint: 30,
  // The rules, the file before the write, the judge, a store write.
  guard: 15,
};
