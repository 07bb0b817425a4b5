import { join } from "node:path";
import * as v from "valibot";
import { canonicalAgent, isAgentId } from "../core/agent.ts";
import { isSafeKey } from "../core/labels.ts";
import { readProjectFile, removeProjectFile, UnsafeProjectPathError, writeProjectFileAtomic } from "../core/project-fs.ts";
import { sessionsDir } from "../store/paths.ts";
import { ensureRuntimeDir } from "../store/runtime-dir.ts";

/** A pointer is a few hundred bytes; a larger file is not one aioson wrote. */
const POINTER_MAX_BYTES = 64 * 1024;

const Key = v.pipe(v.string(), v.check(isSafeKey));

/** Spec 2.6 agent session pointer `.sessions/@<agent>.json`; its keys pass the same schema as when aioson makes them. */
export const PointerSchema = v.looseObject({
  runKey: Key,
  taskKey: v.optional(v.nullable(Key), null),
  sessionKey: v.optional(v.nullable(Key), null),
  startedAt: v.optional(v.nullable(v.string()), null),
  finished: v.optional(v.boolean(), false),
  source: v.optional(v.string()),
  owner: v.optional(v.string()),
});
export type SessionPointer = v.InferOutput<typeof PointerSchema>;

/** The agent's canonical id, when it can name a pointer file (an agent read back from the store may not). */
function pointerAgent(agent: string): string | null {
  const id = canonicalAgent(agent);
  return isAgentId(id) ? id : null;
}

function unsafeAgent(root: string, agent: string): UnsafeProjectPathError {
  return new UnsafeProjectPathError(sessionsDir(root), `agent ${JSON.stringify(agent.slice(0, 80))} is not an agent id`);
}

/** Throws UnsafeProjectPathError for an agent name that is not an agent id (spec 4.1). */
export function pointerPath(root: string, agent: string): string {
  const id = pointerAgent(agent);
  if (id === null) throw unsafeAgent(root, agent);
  return join(sessionsDir(root), `@${id}.json`);
}

function legacyPointerPath(root: string, agent: string): string {
  const id = pointerAgent(agent);
  if (id === null) throw unsafeAgent(root, agent);
  return join(sessionsDir(root), `${id}.json`);
}

/** A pointer file, validated; null when missing, refused (a symlink, a FIFO, too large) or not a pointer. */
function readPointerFile(root: string, path: string): SessionPointer | null {
  try {
    const read = readProjectFile(root, path, POINTER_MAX_BYTES);
    if (read.kind !== "ok") return null;
    const parsed = v.safeParse(PointerSchema, JSON.parse(read.text));
    return parsed.success ? parsed.output : null;
  } catch {
    return null;
  }
}

/** `@<agent>.json`, else the legacy `<agent>.json` the older hooks wrote; null for an agent that is no agent id. */
export function readPointer(root: string, agent: string): SessionPointer | null {
  if (pointerAgent(agent) === null) return null;
  return readPointerFile(root, pointerPath(root, agent)) ?? readPointerFile(root, legacyPointerPath(root, agent));
}

export function writePointer(root: string, agent: string, pointer: SessionPointer): void {
  const path = pointerPath(root, agent);
  ensureRuntimeDir(root, sessionsDir(root));
  writeProjectFileAtomic(root, path, `${JSON.stringify(pointer, null, 2)}\n`);
}

/** Removes the agent's pointer (both spellings) when it names `runKey`. */
export function clearPointer(root: string, agent: string, runKey: string): void {
  for (const path of [pointerPath(root, agent), legacyPointerPath(root, agent)]) {
    if (readPointerFile(root, path)?.runKey === runKey) removeProjectFile(root, path);
  }
}
