/** Spec 4.9: which agent a prompt or a Skill call activates. */
import { existsSync } from "node:fs";
import { join } from "node:path";
import { REGISTERED_AGENTS, canonicalAgent } from "../core/agent.ts";

const SLASH_COMMAND = /\/aioson:agent:([A-Za-z][A-Za-z0-9-]*)/;
const LEADING_NAME = /^[@/]([A-Za-z][A-Za-z0-9-]*)(?=$|[\s\p{P}\p{S}])/u;
const SKILL = /^\/?aioson:agent:([A-Za-z][A-Za-z0-9-]*)$/;

function isKnownAgent(root: string, name: string): boolean {
  const id = canonicalAgent(name);
  if (REGISTERED_AGENTS.has(id)) return true;
  const agents = join(root, ".aioson", "agents");
  return existsSync(join(agents, `${id}.md`)) || existsSync(join(agents, `${name}.md`));
}

/** The canonical id a prompt activates, or null (`/compact`, `@types/node` and plain prompts activate nothing). */
export function promptActivation(root: string, prompt: string): string | null {
  const command = SLASH_COMMAND.exec(prompt);
  if (command) return canonicalAgent(command[1] as string);
  const rest = prompt.trimStart();
  const end = rest.indexOf("\n");
  const firstLine = (end < 0 ? rest : rest.slice(0, end)).trim();
  const leading = LEADING_NAME.exec(firstLine);
  if (!leading) return null;
  const name = leading[1] as string;
  return isKnownAgent(root, name) ? canonicalAgent(name) : null;
}

/** `aioson:agent:<id>` (optional leading `/`) → the id. */
export function skillActivation(skill: string): string | null {
  const match = SKILL.exec(skill.trim());
  return match ? canonicalAgent(match[1] as string) : null;
}
