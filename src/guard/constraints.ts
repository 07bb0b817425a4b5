import { parseFrontmatter } from "../rules/frontmatter.ts";
import { removeHiddenCharacters, Sanitizer } from "../text/sanitize.ts";

/**
 * Spec 6.8: a rule's own constraints, read from the rule file. A rule file is project text and its bullets go
 * into a model: each bullet is sanitised (spec 5.8) before it is classified, de-duplicated and capped, and the
 * bullets withheld as instructions to an AI are only counted.
 */

const REQUIRED_TITLE = /required behavior|framework first|componentization|data access|controls|rules|baseline/;
const DIRECTIVE = /^(?:(?:use|keep|prefer|put|load|treat|turn|verify|report|make|add|separate)\b|do not\b|never\b|avoid\b|no )/i;
const FORBIDDEN_START = /^(?:do not\b|never\b|avoid\b|no )/i;
const FORBIDDEN_ANY = /must not|not expose|raw sql|user input/i;
const STACK_WORDS = new Set(
  ("laravel php symfony wordpress react next nextjs next.js vue nuxt svelte sveltekit angular astro remix solid node nodejs node.js " +
    "express nest nestjs deno django flask fastapi python rails ruby spring java kotlin swift flutter dart go golang rust " +
    "tauri electron dotnet .net csharp elixir phoenix").split(" "),
);
const STACK_SCOPE = /^for\s+(non-)?([a-z0-9.]+)(?:\s+stacks?)?\s*[,:]/i;

export type RuleConstraints = { constraints: string[]; forbidden: string[]; withheld: number };

function titleNorm(title: string): string {
  return title.toLowerCase().replace(/[^a-z0-9]+/g, " ").trim();
}

function bulletText(line: string): string | null {
  const match = /^\s*[-*]\s+(.*\S)\s*$/.exec(line);
  return match ? (match[1] as string) : null;
}

/** Required-section bullets, then directive bullets elsewhere, each in document order, sanitised, without repeats. */
function collectBullets(body: string, clean: Sanitizer): string[] {
  const required: string[] = [];
  const directive: string[] = [];
  const seen = new Set<string>();
  let sectionLevel = 0;
  let inRequired = false;
  let inFence = false;
  for (const line of body.split(/\r?\n/)) {
    if (/^\s*(```|~~~)/.test(line)) {
      inFence = !inFence;
      continue;
    }
    if (inFence) continue;
    const heading = /^(#{1,6})\s+(.*)$/.exec(line);
    if (heading) {
      const level = (heading[1] as string).length;
      if (inRequired && level <= sectionLevel) inRequired = false;
      if (!inRequired && level >= 2 && REQUIRED_TITLE.test(titleNorm(heading[2] as string))) {
        inRequired = true;
        sectionLevel = level;
      }
      continue;
    }
    const raw = bulletText(line);
    // Only bullets that would be shown are sanitised (and counted when withheld); hidden characters cannot
    // disguise a directive's first word.
    if (raw === null || (!inRequired && !DIRECTIVE.test(removeHiddenCharacters(raw).trimStart()))) continue;
    const text = clean.item(raw);
    if (text === null || seen.has(text)) continue;
    seen.add(text);
    (inRequired ? required : directive).push(text);
  }
  return [...required, ...directive];
}

function namesProject(word: string, stack: string): boolean {
  const w = word.toLowerCase().replace(/\.js$/, "").replace(/js$/, "");
  const s = stack.toLowerCase().replace(/\.js$/, "").replace(/js$/, "");
  return s.includes(w) || w.includes(s);
}

/** Stack-addressed bullets first, other stacks' bullets dropped (spec 6.8 stack ranking). */
export function rankForStack(bullets: readonly string[], stack: string): string[] {
  if (!stack.trim()) return [...bullets];
  const front: string[] = [];
  const rest: string[] = [];
  for (const bullet of bullets) {
    const scope = STACK_SCOPE.exec(bullet);
    const word = scope ? (scope[2] as string).toLowerCase() : "";
    if (!scope || !STACK_WORDS.has(word)) {
      rest.push(bullet);
      continue;
    }
    const negated = scope[1] !== undefined;
    const own = namesProject(word, stack);
    if (!negated && own) front.push(bullet);
    else if (negated && !own) rest.push(bullet);
  }
  return [...front, ...rest];
}

/** Constraints (first 10) and forbidden patterns (first 6 not already among the constraints). */
export function ruleConstraints(text: string, stack = ""): RuleConstraints {
  const body = parseFrontmatter(text).body;
  const clean = new Sanitizer();
  const bullets = rankForStack(collectBullets(body, clean), stack);
  const constraints = bullets.slice(0, 10);
  const known = new Set(constraints.map((c) => c.toLowerCase()));
  const forbidden = bullets
    .filter((b) => FORBIDDEN_START.test(b) || FORBIDDEN_ANY.test(b))
    .filter((b) => !known.has(b.toLowerCase()))
    .slice(0, 6);
  return { constraints, forbidden, withheld: clean.withheld };
}
