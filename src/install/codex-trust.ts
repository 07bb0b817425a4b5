/**
 * Codex's hook trust, as Codex 0.169 computes and records it (real-harnesses §2; checked against the records its
 * TUI writes from `/hooks`). A non-managed hook runs only when the user config holds
 * `[hooks.state."<hooks file>:<event_snake>:<group>:<handler>"]` with `trusted_hash = "sha256:<hex>"` equal to the
 * sha256 of the handler's identity: the key-sorted compact JSON of
 * `{"event_name", "matcher"?, "hooks": [{"type", "command", "timeout", "async", "statusMessage"?}]}`, where
 * `command` is the one Codex selects on this platform (`commandWindows` on Windows when present). The key is
 * positional; `enabled = false` switches a hook off whatever its hash. Used by hooks:doctor only.
 */
import { createHash } from "node:crypto";
import { join } from "node:path";
import * as v from "valibot";
import { isOurHandler, isPlainObject } from "./merge.ts";
import type { Env } from "./paths.ts";
import { codexDir } from "./paths.ts";
import { readConfigText } from "./write.ts";

export type TrustState = "trusted" | "modified" | "untrusted" | "disabled";

export type HookTrust = {
  event: string;
  matcher?: string;
  /** The `[hooks.state]` key Codex looks the handler up by. */
  key: string;
  state: TrustState;
  /** What Codex would record for the handler as it is now. */
  currentHash: string;
  /** What Codex recorded when the user trusted it, if anything. */
  trustedHash: string | null;
};

/** Codex's default and floor for a handler's `timeout` (seconds). */
const DEFAULT_TIMEOUT_SECONDS = 600;

const RecordSchema = v.looseObject({ trusted_hash: v.optional(v.string()), enabled: v.optional(v.boolean()) });
const ConfigSchema = v.looseObject({ hooks: v.optional(v.looseObject({ state: v.optional(v.record(v.string(), v.unknown())) })) });

type TrustRecord = { trustedHash: string | null; enabled: boolean };

/** `PostToolUse` → `post_tool_use`, as Codex names events in trust keys and hashes. */
export function snakeEvent(event: string): string {
  return event.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();
}

/** JSON with every object's keys sorted (serde_json's map order), no whitespace. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(",")}]`;
  if (isPlainObject(value)) {
    const keys = Object.keys(value).filter((key) => value[key] !== undefined).sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonicalJson(value[key])}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

/** The `sha256:<hex>` Codex records when the user trusts this handler (`windows`: the platform Codex runs on). */
export function codexTrustHash(event: string, matcher: string | undefined, handler: Record<string, unknown>, windows = process.platform === "win32"): string {
  const command = windows && typeof handler.commandWindows === "string" ? handler.commandWindows : handler.command;
  const timeout = typeof handler.timeout === "number" ? Math.max(1, Math.floor(handler.timeout)) : DEFAULT_TIMEOUT_SECONDS;
  const identity = {
    event_name: snakeEvent(event),
    matcher,
    hooks: [{ type: handler.type, command, timeout, async: handler.async === true, statusMessage: typeof handler.statusMessage === "string" ? handler.statusMessage : undefined }],
  };
  return `sha256:${createHash("sha256").update(canonicalJson(identity)).digest("hex")}`;
}

/** The `[hooks.state]` records of `<codex home>/config.toml`; none when it is missing, unreadable or not TOML. */
export function codexTrustRecords(env: Env): Map<string, TrustRecord> {
  const records = new Map<string, TrustRecord>();
  const read = readConfigText(join(codexDir(env), "config.toml"));
  if (read.state !== "ok") return records;
  let parsed: unknown;
  try {
    parsed = Bun.TOML.parse(read.text);
  } catch {
    return records;
  }
  const config = v.safeParse(ConfigSchema, parsed);
  if (!config.success) return records;
  for (const [key, value] of Object.entries(config.output.hooks?.state ?? {})) {
    const record = v.safeParse(RecordSchema, value);
    if (record.success) records.set(key, { trustedHash: record.output.trusted_hash ?? null, enabled: record.output.enabled !== false });
  }
  return records;
}

/**
 * The trust of every aioson handler in a Codex hooks file, in file order. `paths`: the spellings of the file's path
 * Codex may have keyed its records by (as configured, and real: it resolves its home), the first one preferred.
 */
export function codexHookTrust(paths: readonly string[], hooks: unknown, env: Env): HookTrust[] {
  const records = codexTrustRecords(env);
  const found: HookTrust[] = [];
  if (!isPlainObject(hooks)) return found;
  for (const [event, entries] of Object.entries(hooks)) {
    if (!Array.isArray(entries)) continue;
    entries.forEach((entry, group) => {
      if (!isPlainObject(entry) || !Array.isArray(entry.hooks)) return;
      const matcher = typeof entry.matcher === "string" ? entry.matcher : undefined;
      entry.hooks.forEach((handler, index) => {
        if (!isOurHandler(handler) || !isPlainObject(handler)) return;
        const keys = paths.map((file) => `${file}:${snakeEvent(event)}:${group}:${index}`);
        const key = keys.find((candidate) => records.has(candidate)) ?? (keys[0] as string);
        const record = records.get(key);
        const currentHash = codexTrustHash(event, matcher, handler);
        const trustedHash = record?.trustedHash ?? null;
        const state: TrustState = record && !record.enabled ? "disabled" : trustedHash === null ? "untrusted" : trustedHash === currentHash ? "trusted" : "modified";
        found.push({ event, ...(matcher !== undefined ? { matcher } : {}), key, state, currentHash, trustedHash });
      });
    });
  }
  return found;
}
