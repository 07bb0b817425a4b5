/**
 * The project files a checkpoint quotes (spec 5.5 Feature, 5.6 next step): `.aioson/context/`
 * `workflow.state.json`, `dev-state.md`, `project-pulse.md`. All are edited by people and agents, so
 * absence, corruption and unreadable files simply omit the fact.
 */
import { join } from "node:path";
import * as v from "valibot";
import { readProjectText } from "../core/project-read.ts";

/** A context file larger than this is not a state file anyone meant to write; it is ignored. */
const MAX_CONTEXT_BYTES = 256 * 1024;

export function contextPath(root: string, name: string): string {
  return join(root, ".aioson", "context", name);
}

/** A regular file only, no symlink on the way (project-fs; never blocks on a FIFO), at most MAX_CONTEXT_BYTES. */
export function readContextFile(root: string, name: string): string | null {
  return readProjectText(root, contextPath(root, name), MAX_CONTEXT_BYTES);
}

const text = v.fallback(v.optional(v.string()), undefined);

/** The workflow fields a checkpoint uses; other keys and wrong types are ignored. */
export const WorkflowStateSchema = v.looseObject({ current: text, next: text, mode: text, featureSlug: text });
export type WorkflowState = v.InferOutput<typeof WorkflowStateSchema>;

export function parseWorkflowState(source: string | null): WorkflowState | null {
  if (source === null) return null;
  try {
    const value: unknown = JSON.parse(source);
    if (Array.isArray(value)) return null;
    const parsed = v.safeParse(WorkflowStateSchema, value);
    return parsed.success ? parsed.output : null;
  } catch {
    return null;
  }
}

export type MarkdownState = { frontmatter: Record<string, string>; body: string };

function unquote(value: string): string {
  const trimmed = value.trim();
  const quote = trimmed[0];
  if (trimmed.length >= 2 && (quote === '"' || quote === "'") && trimmed.endsWith(quote)) {
    const inner = trimmed.slice(1, -1);
    return quote === '"' ? inner.replace(/\\(["\\])/g, "$1") : inner.replaceAll("''", "'");
  }
  return trimmed;
}

/**
 * The `key: value` scalars of a leading `---` frontmatter block and the body after it. A block that
 * is opened but never closed makes the file unparsable (null).
 */
export function parseMarkdownState(source: string | null): MarkdownState | null {
  if (source === null) return null;
  // Plain string tests first: each regex costs a compilation in a short-lived process.
  const unmarked = source.charCodeAt(0) === 0xfeff ? source.slice(1) : source;
  const normalized = unmarked.includes("\r") ? unmarked.replace(/\r\n?/g, "\n") : unmarked;
  const open = /^---[ \t]*\n/.exec(normalized);
  if (!open) return { frontmatter: {}, body: normalized };
  const rest = normalized.slice(open[0].length);
  const close = /^---[ \t]*$/m.exec(rest);
  if (!close) return null;
  return { frontmatter: parseScalars(rest.slice(0, close.index)), body: rest.slice(close.index + close[0].length) };
}

/** `>` or `|`, optionally followed by a chomping `+` or `-`. */
function isBlockIndicator(value: string): boolean {
  return (value[0] === ">" || value[0] === "|") && (value.length === 1 || (value.length === 2 && (value[1] === "+" || value[1] === "-")));
}

/** Top-level `key: value` lines; a block scalar (`key: >` / `key: |`) joins its indented lines. */
function parseScalars(block: string): Record<string, string> {
  const frontmatter: Record<string, string> = {};
  const lines = block.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const match = /^([A-Za-z_][\w-]*)[ \t]*:[ \t]*(.*)$/.exec(lines[i] as string);
    if (!match) continue;
    const value = (match[2] as string).trim();
    if (isBlockIndicator(value)) {
      const folded: string[] = [];
      while (i + 1 < lines.length && /^[ \t]+\S/.test(lines[i + 1] as string)) folded.push((lines[++i] as string).trim());
      frontmatter[match[1] as string] = folded.join(" ");
    } else {
      frontmatter[match[1] as string] = unquote(value);
    }
  }
  return frontmatter;
}

/** `next_step` from the frontmatter, else the body line `**Next step:** <text>`. */
export function devNextStep(state: MarkdownState | null): string | null {
  if (!state) return null;
  const fromFrontmatter = state.frontmatter.next_step?.trim();
  if (fromFrontmatter) return fromFrontmatter;
  const line = /^\s*(?:[-*]\s+)?\*\*Next step:\*\*\s*(.+)$/im.exec(state.body);
  return line?.[1]?.trim() || null;
}

const NO_FEATURE: ReadonlySet<string> = new Set(["", "(none)", "none", "-"]);

export function featureValue(value: string | undefined): string | null {
  const trimmed = value?.trim() ?? "";
  return NO_FEATURE.has(trimmed.toLowerCase()) ? null : trimmed;
}

/** Reads each file at most once, and only when a fact asks for it. */
export class ContextFiles {
  #workflow: WorkflowState | null | undefined;
  #devState: MarkdownState | null | undefined;
  #pulse: MarkdownState | null | undefined;

  constructor(private readonly root: string) {}

  workflow(): WorkflowState | null {
    if (this.#workflow === undefined) this.#workflow = parseWorkflowState(readContextFile(this.root, "workflow.state.json"));
    return this.#workflow;
  }

  devState(): MarkdownState | null {
    if (this.#devState === undefined) this.#devState = parseMarkdownState(readContextFile(this.root, "dev-state.md"));
    return this.#devState;
  }

  pulse(): MarkdownState | null {
    if (this.#pulse === undefined) this.#pulse = parseMarkdownState(readContextFile(this.root, "project-pulse.md"));
    return this.#pulse;
  }
}

/** Spec 5.5 Feature: workflow `featureSlug` → dev-state `active_feature` → project-pulse `active_feature`. */
export function activeFeature(files: ContextFiles): string | null {
  return (
    featureValue(files.workflow()?.featureSlug) ??
    featureValue(files.devState()?.frontmatter.active_feature) ??
    featureValue(files.pulse()?.frontmatter.active_feature)
  );
}
