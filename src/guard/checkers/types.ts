/** A file a checker reads: the edited file itself, a path a plan cites, or a plan's code carrier. */
export type CheckFile = {
  /** Project-relative path with `/` (a carrier is `index<ext>`). */
  rel: string;
  lines: string[];
  /** What a finding reports as its file: `rel`, or null for a plan's code carrier. */
  reportFile: string | null;
};

export type Severity = "HIGH" | "MED";

export type Finding = {
  category: string;
  severity: Severity;
  message: string;
  /** Injection line text without the severity (spec 6.8 summaries). */
  summary: string;
  file: string | null;
  line: number | null;
  token?: string;
  scope?: string;
  snippet: string;
};

export type CheckOptions = {
  /** Recording debt / re-checking: no per-file cap. */
  uncapped: boolean;
  maxFileLines: number;
  maxFunctionLines: number;
};

export type Checker = (file: CheckFile, options: CheckOptions) => Finding[];

export function extensionOf(rel: string): string {
  const name = rel.slice(rel.lastIndexOf("/") + 1);
  const dot = name.lastIndexOf(".");
  return dot > 0 ? name.slice(dot).toLowerCase() : "";
}

export function fileNameOf(rel: string): string {
  return rel.slice(rel.lastIndexOf("/") + 1);
}
