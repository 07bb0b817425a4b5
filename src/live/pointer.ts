import { mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import * as v from "valibot";
import { writeFileAtomic } from "../core/atomic-write.ts";
import { canonicalAgent } from "../core/agent.ts";
import { sessionsDir } from "../store/paths.ts";

/** Spec 2.6 agent session pointer `.sessions/@<agent>.json`. */
export const PointerSchema = v.looseObject({
  runKey: v.string(),
  taskKey: v.optional(v.nullable(v.string()), null),
  sessionKey: v.optional(v.nullable(v.string()), null),
  startedAt: v.optional(v.nullable(v.string()), null),
  finished: v.optional(v.boolean(), false),
  source: v.optional(v.string()),
  owner: v.optional(v.string()),
});
export type SessionPointer = v.InferOutput<typeof PointerSchema>;

export function pointerPath(root: string, agent: string): string {
  return join(sessionsDir(root), `@${canonicalAgent(agent)}.json`);
}

function legacyPointerPath(root: string, agent: string): string {
  return join(sessionsDir(root), `${canonicalAgent(agent)}.json`);
}

function readPointerFile(path: string): SessionPointer | null {
  try {
    const parsed = v.safeParse(PointerSchema, JSON.parse(readFileSync(path, "utf8")));
    return parsed.success ? parsed.output : null;
  } catch {
    return null;
  }
}

/** `@<agent>.json`, else the legacy `<agent>.json` the older hooks wrote. */
export function readPointer(root: string, agent: string): SessionPointer | null {
  return readPointerFile(pointerPath(root, agent)) ?? readPointerFile(legacyPointerPath(root, agent));
}

export function writePointer(root: string, agent: string, pointer: SessionPointer): void {
  mkdirSync(sessionsDir(root), { recursive: true });
  writeFileAtomic(pointerPath(root, agent), `${JSON.stringify(pointer, null, 2)}\n`);
}

/** Removes the agent's pointer (both spellings) when it names `runKey`. */
export function clearPointer(root: string, agent: string, runKey: string): void {
  for (const path of [pointerPath(root, agent), legacyPointerPath(root, agent)]) {
    if (readPointerFile(path)?.runKey === runKey) rmSync(path, { force: true });
  }
}
