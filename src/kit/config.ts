/**
 * Per-project configuration of the guard kit.
 *
 * - `<root>/.aioson/hooks/kit.json`: options, one section per guard (validated with valibot; a broken file is
 *   logged and ignored so a typo never blocks an agent):
 *     {
 *       "pre-commit-guard": { "types": ["feat","fix",…], "codexAsk": "deny" | "pass" },
 *       "verify-claims": { "maxPaths": 10 },
 *       "lesson-injector": { "dirs": [".aioson/lessons", "~/.copilot/lessons"], "limit": 5 },
 *       "context-save": { "dir": "docs/maps" },
 *       "<any guard>": { "enabled": false, "agents": ["dev", "qa"] }
 *     }
 *   `agents` scopes a guard: it acts only when the agent (the hook's `--agent` flag, else the payload's
 *   `agent_type`, else `AIOSON_AGENT`) is one of them.
 * - `<root>/.aioson/hooks/<guard>.md`: the text a reminder guard says (stop-checklist, output-format,
 *   skill-feedback), replacing the built-in text. Markdown, because these texts are long and written by people.
 */
import { join } from "node:path";
import { canonicalAgent } from "../core/agent.ts";
import { readProjectFile } from "../core/project-fs.ts";
import { readProjectText } from "../core/project-read.ts";
import { refusalText } from "../core/regular-file.ts";

export type GuardName =
  | "pre-commit-guard" | "verify-claims" | "context-confidence-check" | "stop-checklist" | "output-format"
  | "skill-feedback" | "subagent-audit" | "lesson-injector" | "session-context" | "context-save";

export type GuardSection = {
  enabled?: boolean;
  agents?: string[];
  types?: string[];
  codexAsk?: "deny" | "pass";
  maxPaths?: number;
  dirs?: string[];
  limit?: number;
  dir?: string;
};

export type KitConfig = Partial<Record<GuardName, GuardSection>>;

export function kitConfigPath(root: string): string {
  return join(root, ".aioson", "hooks", "kit.json");
}

export function guardTextPath(root: string, guard: GuardName): string {
  return join(root, ".aioson", "hooks", `${guard}.md`);
}

/**
 * kit.json and the reminder texts are a few KiB; a FIFO, a folder, a larger file, a symlink or a file behind a
 * symlinked folder there is not read (a reminder's text becomes a Stop block's reason: the model's next prompt).
 */
const MAX_KIT_FILE_BYTES = 256 * 1024;

export class KitConfigError extends Error {
  override name = "KitConfigError";
}

/**
 * The section of one guard; {} when there is no project or no file. Throws KitConfigError on a broken file
 * (the caller logs it and goes on with defaults).
 */
export async function loadGuardSection(root: string | null, guard: GuardName): Promise<GuardSection> {
  if (!root) return {};
  const path = kitConfigPath(root);
  const read = readProjectFile(root, path, MAX_KIT_FILE_BYTES);
  if (read.kind === "missing") return {};
  if (read.kind !== "ok") throw new KitConfigError(`${path}: not read (${refusalText(read)})`);
  let value: unknown;
  try {
    value = JSON.parse(read.text.replace(/^\uFEFF/, ""));
  } catch (error) {
    throw new KitConfigError(`${path}: not valid JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  const { validateKitConfig } = await import("./config-schema.ts");
  const checked = validateKitConfig(value);
  if (!checked.ok) throw new KitConfigError(`${path}: ${checked.where ? `${checked.where}: ` : ""}${checked.message}`);
  return ((checked.value as KitConfig)[guard] ?? {}) as GuardSection;
}

/** The project's text for a reminder guard, or null to use the built-in one. */
export function loadGuardText(root: string | null, guard: GuardName): string | null {
  if (!root) return null;
  const text = readProjectText(root, guardTextPath(root, guard), MAX_KIT_FILE_BYTES)?.replace(/^\uFEFF/, "").trim();
  return text || null;
}

/** A guard scoped with `agents` acts only for those agents; an unknown agent is out of scope. */
export function inScope(section: GuardSection, agent: string | null): boolean {
  if (section.enabled === false) return false;
  if (!section.agents || section.agents.length === 0) return true;
  if (!agent) return false;
  const wanted = canonicalAgent(agent);
  return section.agents.some((name) => canonicalAgent(name) === wanted);
}
