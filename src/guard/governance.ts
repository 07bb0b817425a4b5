import { isTruthy, parseList } from "../rules/frontmatter.ts";
import { isReadme, listMarkdown } from "../rules/load.ts";

/** Spec 6.9 governance discovery: documents that declare a deterministic checker (`enforcement:`). */

export const EDIT_TIME_CHECKERS = ["source-code-language", "no-native-dialogs", "file-size", "function-size"] as const;
export type CheckerId = (typeof EDIT_TIME_CHECKERS)[number];

export type GovernanceDoc = {
  rel: string;
  /** Frontmatter `name` ‖ basename without `.md` (the baseline's `rule`). */
  name: string;
  authority: "binding" | "advisory";
  checkers: CheckerId[];
  agents: string[];
  patterns: string[];
  maxFileLines: number | null;
  maxFunctionLines: number | null;
  /**
   * `guard_deny: true`: a new HIGH violation this document's checker measures denies the write (PreToolUse
   * `permissionDecision: "deny"`) instead of only advising, because Claude Code shows a PreToolUse
   * `additionalContext` to the model after the write has already happened (real-harnesses §1).
   */
  deny: boolean;
  text: string;
};

const SURFACES: ReadonlyArray<{ dir: string; authority: GovernanceDoc["authority"] }> = [
  { dir: ".aioson/rules", authority: "binding" },
  { dir: ".aioson/docs", authority: "advisory" },
  { dir: ".aioson/skills/process", authority: "advisory" },
];

function positive(value: string | undefined): number | null {
  if (value === undefined) return null;
  const n = Number.parseInt(value, 10);
  return Number.isFinite(n) && n > 0 ? n : null;
}

/** The documents that declare at least one edit-time checker; the others are not built at all. */
export function discoverGovernance(root: string): GovernanceDoc[] {
  const out: GovernanceDoc[] = [];
  for (const { dir, authority } of SURFACES) {
    for (const doc of listMarkdown(root, dir, true).docs) {
      const data = doc.frontmatter.data;
      if (data.enforcement === undefined) continue;
      const checkers = parseList(data.enforcement).filter((id): id is CheckerId => (EDIT_TIME_CHECKERS as readonly string[]).includes(id));
      if (checkers.length === 0) continue;
      if (isReadme(doc.name)) continue;
      if (doc.rel.slice(dir.length + 1).split("/").some((part) => part.startsWith("_"))) continue;
      out.push({
        rel: doc.rel,
        name: data.name?.trim() || doc.name.replace(/\.md$/i, ""),
        authority,
        checkers,
        agents: parseList(data.agents).map((a) => a.toLowerCase().replace(/^@/, "")),
        patterns: parseList(data.paths ?? data.globs),
        maxFileLines: positive(data.max_file_lines),
        maxFunctionLines: positive(data.max_function_lines),
        deny: isTruthy(data.guard_deny),
        text: doc.text,
      });
    }
  }
  return out;
}

export function appliesToAgent(doc: GovernanceDoc, agent: string): boolean {
  return doc.agents.length === 0 || doc.agents.includes("all") || doc.agents.includes(agent);
}
