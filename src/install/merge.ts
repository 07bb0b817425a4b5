/**
 * Spec 9.9 merge rules as pure functions over parsed JSON: handler-by-handler ownership, strip, install in place.
 * Nothing here touches the file system; `write.ts` turns the result into bytes.
 */
import { agentOfCommand, isOurCommand, subcommandOf } from "./commands.ts";
import type { HandlerSpec, JsonObject } from "./types.ts";

export function isPlainObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Handler JSON with the key order of the docs: type, name, timeout, timeoutSec, async, statusMessage, command, commandWindows|windows, powershell, env. */
export function handlerJson(spec: HandlerSpec): JsonObject {
  const handler: JsonObject = { type: "command" };
  if (spec.name !== undefined) handler.name = spec.name;
  if (spec.timeout !== undefined) handler.timeout = spec.timeout;
  if (spec.timeoutSec !== undefined) handler.timeoutSec = spec.timeoutSec;
  if (spec.async !== undefined) handler.async = spec.async;
  if (spec.statusMessage !== undefined) handler.statusMessage = spec.statusMessage;
  handler.command = spec.command;
  if (spec.commandWindows !== undefined) handler.commandWindows = spec.commandWindows;
  if (spec.windows !== undefined) handler.windows = spec.windows;
  if (spec.powershell !== undefined) handler.powershell = spec.powershell;
  if (spec.env !== undefined) handler.env = { ...spec.env };
  return handler;
}

/** The event-array entry for one spec: a group `{matcher?, hooks:[handler]}`, or the bare handler when flat. */
export function entryJson(spec: HandlerSpec): JsonObject {
  if (spec.flat) return handlerJson(spec);
  return spec.matcher === undefined ? { hooks: [handlerJson(spec)] } : { matcher: spec.matcher, hooks: [handlerJson(spec)] };
}

export function isOurHandler(value: unknown): boolean {
  return isPlainObject(value) && (isOurCommand(value.command) || isOurCommand(value.commandWindows) || isOurCommand(value.windows) || isOurCommand(value.powershell));
}

/** Strips our handlers from one event array; returns the same array when nothing was ours. */
export function stripEventArray(entries: readonly unknown[]): readonly unknown[] {
  let touched = false;
  const kept: unknown[] = [];
  for (const entry of entries) {
    if (isPlainObject(entry) && Array.isArray(entry.hooks)) {
      const handlers = entry.hooks.filter((handler) => !isOurHandler(handler));
      if (handlers.length === entry.hooks.length) kept.push(entry);
      else {
        touched = true;
        if (handlers.length > 0) kept.push({ ...entry, hooks: handlers });
      }
    } else if (isOurHandler(entry)) {
      touched = true;
    } else {
      kept.push(entry);
    }
  }
  return touched ? kept : entries;
}

/**
 * Strip every event. An event emptied by the strip is dropped; an array the user left empty stays
 * (so that uninstall gives back the user's bytes). Non-array values are left untouched.
 */
export function stripHooks(hooks: JsonObject): JsonObject {
  const result: JsonObject = {};
  for (const [event, value] of Object.entries(hooks)) {
    if (!Array.isArray(value)) {
      result[event] = value;
      continue;
    }
    const stripped = stripEventArray(value);
    if (stripped.length > 0 || value.length === 0) result[event] = stripped;
  }
  return result;
}

/**
 * A place one of our entries holds in an event array: a group whose handlers are all ours, or one of our bare
 * handlers. Our handlers inside a user's group are no such place: they are stripped from it (spec 9.9), as before.
 */
type Slot = { at: number; entry: JsonObject; flat: boolean };

function slotOf(entry: unknown, at: number): Slot | null {
  if (!isPlainObject(entry)) return null;
  if (Array.isArray(entry.hooks)) return entry.hooks.length > 0 && entry.hooks.every(isOurHandler) ? { at, entry, flat: false } : null;
  return isOurHandler(entry) ? { at, entry, flat: true } : null;
}

/**
 * One event's array after an install: every user entry stays where it is (losing the handlers of ours it held); our
 * entries go to the places ours held — those that already say the same thing first, the rest in order — places left
 * over are removed and entries left over are appended. Codex keys hook trust by position
 * (`<file>:<event>:<group>:<handler>`), so an identical reinstall changes nothing, a changed handler is replaced in
 * place, and user groups before and after ours keep their keys.
 */
function placeEntries(entries: readonly unknown[], wanted: readonly JsonObject[]): unknown[] {
  const slots = entries.map(slotOf).filter((slot): slot is Slot => slot !== null);
  const taken = new Map<number, JsonObject>();
  const free = new Set(wanted);
  for (const same of [true, false]) {
    for (const slot of slots) {
      if (taken.has(slot.at)) continue;
      const entry = [...free].find((candidate) => !Array.isArray(candidate.hooks) === slot.flat && (!same || jsonEqual(candidate, slot.entry)));
      if (!entry) continue;
      taken.set(slot.at, entry);
      free.delete(entry);
    }
  }
  const placed = entries.flatMap((entry, at) => {
    if (slots.some((slot) => slot.at === at)) return taken.has(at) ? [taken.get(at)] : [];
    return stripEventArray([entry]);
  });
  return [...placed, ...wanted.filter((entry) => free.has(entry))];
}

/**
 * Install: every event array gets our entries for it where ours already were (placeEntries), events we no longer
 * write lose ours (an event left empty is dropped), events new to the file come after the others in spec order.
 * Spec 9.9 appended ours at the end of each array; the real Codex keys trust by position (issue 13).
 */
export function mergeInstall(config: JsonObject, specs: readonly HandlerSpec[]): JsonObject {
  const existing = isPlainObject(config.hooks) ? config.hooks : {};
  const wanted = new Map<string, JsonObject[]>();
  for (const spec of specs) wanted.set(spec.event, [...(wanted.get(spec.event) ?? []), entryJson(spec)]);
  const hooks: JsonObject = {};
  for (const [event, value] of Object.entries(existing)) {
    // A non-array value is the user's (however odd): never replaced; that event is not installed there.
    if (!Array.isArray(value)) {
      hooks[event] = value;
      wanted.delete(event);
      continue;
    }
    const placed = placeEntries(value, wanted.get(event) ?? []);
    wanted.delete(event);
    if (placed.length > 0 || value.length === 0) hooks[event] = placed;
  }
  for (const [event, entries] of wanted) hooks[event] = entries;
  return { ...config, hooks };
}

/** Uninstall: strip every event; `hooks` is deleted when the strip leaves it empty. */
export function mergeUninstall(config: JsonObject): JsonObject {
  if (!isPlainObject(config.hooks)) return config;
  const hooks = stripHooks(config.hooks);
  const result: JsonObject = { ...config, hooks };
  if (Object.keys(hooks).length === 0 && Object.keys(config.hooks).length > 0) delete result.hooks;
  return result;
}

export type FoundHandler = { event: string; matcher: string | undefined; handler: JsonObject; flat: boolean };

/** Every handler object in a hooks tree (grouped and flat), in file order. */
export function allHandlers(hooks: unknown): FoundHandler[] {
  const found: FoundHandler[] = [];
  if (!isPlainObject(hooks)) return found;
  for (const [event, value] of Object.entries(hooks)) {
    if (!Array.isArray(value)) continue;
    for (const entry of value) {
      if (!isPlainObject(entry)) continue;
      if (Array.isArray(entry.hooks)) {
        const matcher = typeof entry.matcher === "string" ? entry.matcher : undefined;
        for (const handler of entry.hooks) if (isPlainObject(handler)) found.push({ event, matcher, handler, flat: false });
      } else {
        found.push({ event, matcher: undefined, handler: entry, flat: true });
      }
    }
  }
  return found;
}

export type InstalledAgents = { telemetry: string | null; guard: string | null };

/** Spec 9.2: the agents already installed in a target (telemetry from emit/recap/agent:done/live:start; guard from context:guard). */
export function installedAgents(hooks: unknown): InstalledAgents {
  const agents: InstalledAgents = { telemetry: null, guard: null };
  for (const { handler } of allHandlers(hooks)) {
    const command = typeof handler.command === "string" ? handler.command : "";
    if (!isOurCommand(command)) continue;
    const sub = subcommandOf(command);
    const agent = agentOfCommand(command);
    if (!agent) continue;
    if (sub === "context:guard") agents.guard ??= agent;
    else if (sub === "hooks:emit" || sub === "hooks:recap" || sub === "agent:done" || sub === "live:start") agents.telemetry ??= agent;
  }
  return agents;
}

/** Order-insensitive structural equality for parsed JSON. */
export function jsonEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, i) => jsonEqual(item, b[i]));
  }
  if (isPlainObject(a) && isPlainObject(b)) {
    const keys = Object.keys(a);
    if (keys.length !== Object.keys(b).length) return false;
    return keys.every((key) => Object.hasOwn(b, key) && jsonEqual(a[key], b[key]));
  }
  return false;
}

/** Spec of a handler found in a file (used to keep optional `guard:*` hooks across reinstalls). */
export function specOf(found: FoundHandler): HandlerSpec {
  const { handler } = found;
  const spec: HandlerSpec = { event: found.event, command: typeof handler.command === "string" ? handler.command : "" };
  if (found.matcher !== undefined) spec.matcher = found.matcher;
  if (typeof handler.name === "string") spec.name = handler.name;
  if (isPlainObject(handler.env) && Object.values(handler.env).every((value) => typeof value === "string")) spec.env = handler.env as Record<string, string>;
  if (typeof handler.commandWindows === "string") spec.commandWindows = handler.commandWindows;
  if (typeof handler.windows === "string") spec.windows = handler.windows;
  if (typeof handler.powershell === "string") spec.powershell = handler.powershell;
  if (typeof handler.timeout === "number") spec.timeout = handler.timeout;
  if (typeof handler.timeoutSec === "number") spec.timeoutSec = handler.timeoutSec;
  if (typeof handler.async === "boolean") spec.async = handler.async;
  if (typeof handler.statusMessage === "string") spec.statusMessage = handler.statusMessage;
  if (found.flat) spec.flat = true;
  return spec;
}
