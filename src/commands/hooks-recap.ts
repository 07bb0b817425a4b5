import { defineCommand, type CommandDef } from "../cli/command.ts";
import { agentOption, stripQuotes } from "../core/agent.ts";
import { logHookProblem } from "../core/hook-log.ts";
import { harnessSessionId } from "../core/labels.ts";
import { printJson } from "../core/output.ts";
import { resolveHookRoot } from "../core/project-root.ts";
import { readHookPayload } from "../core/stdin.ts";
import { hooksSwitchedOff } from "../core/switch.ts";
import { recapOutput } from "../recap/envelope.ts";

const COMMAND = "hooks:recap";
const MMAP_BYTES = 64 * 1024 * 1024;

type RecapArgs = { dir?: string; agent?: string; source?: string; when?: string; session?: string; json?: boolean };

function option(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const text = stripQuotes(value);
  return text ? text : null;
}

/** `session_id` (case-tolerant spellings of spec 3) of the SessionStart payload. */
function payloadSession(payload: Record<string, unknown> | null): string | null {
  for (const key of ["session_id", "sessionId", "sessionID"]) {
    // Trimmed and capped exactly as hooks:emit spells the id it records (labels.ts), or the two never meet.
    const id = harnessSessionId(payload?.[key]);
    if (id) return id;
  }
  return null;
}

/** The checkpoint text, or null for "inject nothing". Throws only on internal failures. */
async function checkpoint(root: string, args: RecapArgs): Promise<string | null> {
  const read = await readHookPayload();
  const payload = read.kind === "payload" ? read.payload : null;
  const { passesGate, buildCheckpoint, confirmsCompaction, confirmNewestCompaction } = await import("../recap/recap.ts");
  const gate = { when: option(args.when)?.toLowerCase() ?? "compact", payload };
  if (!passesGate(gate)) return null;
  const { openStore, closeStore, withStoreTransaction } = await import("../store/db.ts");
  const store = openStore(root, { mustExist: true });
  if (!store) return null;
  try {
    // A recap reads a few hundred pages once: mapping them spares copying each into the page cache.
    store.db.exec(`PRAGMA mmap_size = ${MMAP_BYTES}`);
    const session = option(args.session) ?? payloadSession(payload);
    const text = await buildCheckpoint(store.db, {
      root,
      agent: agentOption(args.agent),
      session: harnessSessionId(option(args.session)),
      payloadSession: payloadSession(payload),
      liveSessionEnv: process.env.AIOSON_LIVE_SESSION,
    });
    if (session && confirmsCompaction(gate)) {
      // The checkpoint is already built; a confirmation that cannot be written never costs the agent its checkpoint.
      try {
        withStoreTransaction(store, () => confirmNewestCompaction(store.db, session));
      } catch (error) {
        logHookProblem(root, COMMAND, error);
      }
    }
    return text;
  } finally {
    closeStore(store);
  }
}

const command = defineCommand({
  meta: { name: COMMAND, description: "Rebuild the post-compaction checkpoint from recorded events" },
  args: {
    dir: { type: "positional", required: false, description: "Where the project root walk starts (default: cwd)" },
    agent: { type: "string", description: "Install agent: the fallback Agent line (default dev)" },
    source: { type: "string", description: "Harness: claude, codex, antigravity or opencode (selects the JSON envelope)" },
    when: { type: "string", description: "compact (default): only after a compact SessionStart; always: on demand" },
    session: { type: "string", description: "Harness session id to read (OpenCode passes its own)" },
    json: { type: "boolean", alias: "j", description: "Print the harness JSON envelope instead of plain text" },
  },
  async run({ args }) {
    const json = args.json === true;
    const source = option(args.source)?.toLowerCase() ?? "claude";
    // Switched off (AIOSON=0): the answer of a recap with nothing to inject, and no walk for the project root.
    const root = hooksSwitchedOff() ? null : resolveHookRoot(typeof args.dir === "string" && args.dir ? args.dir : process.cwd());
    let text: string | null = null;
    if (root) {
      try {
        text = await checkpoint(root, args);
      } catch (error) {
        logHookProblem(root, COMMAND, error);
        text = null;
      }
    }
    const output = recapOutput(text, source, json);
    if (output.kind === "json") printJson(output.value);
    else if (output.kind === "text") console.log(output.text);
    process.exitCode = 0;
  },
});

/** Widened for the lazy command table of cli.ts: citty's typed args are not assignable to ArgsDef. */
export default command as CommandDef;
