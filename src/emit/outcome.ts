/** Spec 4.5–4.7: did a shell command pass, fail, or is it unknown? */
import type { ToolResponse } from "../harness/types.ts";

export type Outcome = "passed" | "failed" | "unknown";
export type CommandOutcome = { outcome: Outcome; exitCode: number | null; summary: string | null };

const WRAPPERS = ["npx", "bunx", "pnpm exec", "pnpm dlx", "yarn dlx", "poetry run", "uv run", "pipenv run", "bundle exec"].map((w) => w.split(" "));

const RUNNERS = [
  "npm test", "npm t", "npm run test", "pnpm test", "pnpm run test", "yarn test", "yarn run test", "bun test",
  "bun run test", "jest", "vitest", "mocha", "ava", "tap", "node --test", "deno test", "playwright test",
  "cypress run", "pytest", "py.test", "python -m pytest", "python3 -m pytest", "python -m unittest",
  "python3 -m unittest", "go test", "cargo test", "cargo nextest", "rspec", "rake test", "rails test", "phpunit",
  "vendor/bin/phpunit", "pest", "vendor/bin/pest", "php artisan test", "dotnet test", "mvn test", "mvn verify",
  "gradle test", "./gradlew test", "mix test", "swift test", "flutter test", "make test",
].map((r) => r.split(" "));

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

function startsWithWords(words: readonly string[], prefix: readonly string[]): boolean {
  if (words.length < prefix.length) return false;
  return prefix.every((word, i) => {
    const actual = words[i] as string;
    // `npm run test:unit` is a test script too.
    if (i === prefix.length - 1 && word === "test" && actual.startsWith("test:")) return true;
    return actual === word;
  });
}

/** Spec 4.6: any `&&`/`||`/`;`/`|` segment starting with a known runner (after env assignments and one wrapper). */
export function isTestRunner(command: string): boolean {
  for (const segment of command.split(/&&|\|\||;|\|/)) {
    let words = segment.trim().split(/\s+/).filter(Boolean);
    while (words.length > 0 && ASSIGNMENT.test(words[0] as string)) words = words.slice(1);
    const wrapper = WRAPPERS.find((w) => startsWithWords(words, w));
    if (wrapper) words = words.slice(wrapper.length);
    if (RUNNERS.some((runner) => startsWithWords(words, runner))) return true;
  }
  return false;
}

const FAIL_SIGNALS: readonly RegExp[] = [
  /\b[1-9]\d*\s+(failed|failing|failures?|errors?)\b/i,
  /\b(failures|errors):\s*[1-9]\d*/i,
  /^\s*(---\s+)?FAIL\b/,
  /^test result: FAILED/,
  /^#\s*fail\s+[1-9]\d*/,
  // Beyond spec 4.7 (whose list is silent on them): `bun test` closes on " 1 fail" alone on a line.
  /^\s*[1-9]\d*\s+fail\s*$/,
];
const TAP_NOT_OK = /^\s*not ok\b/;
const TAP_DIRECTIVE = /#\s*(TODO|SKIP)\b/i;
const PASS_SIGNALS: readonly RegExp[] = [
  /\b\d+\s+(passed|passing)\b/i,
  /^#\s*fail\s+0\b/,
  /^#\s*pass\s+\d+/,
  /^test result: ok\b/,
  /^ok\s+\S+/,
  /\bTests:\s.*\bpassed\b/,
  /^OK\b/,
  /\bOK \(\d+ tests?/,
  // Beyond spec 4.7: `bun test` (" 12 pass" alone on a line) and RSpec ("12 examples, 0 failures").
  /^\s*\d+\s+pass\s*$/,
  /\b\d+ examples?, 0 failures\b/,
];

/** Summaries sit at the end of the output; a 10 MB log is not scanned whole. */
const SCAN_TAIL = 256 * 1024;

function scanWindow(output: string): string {
  return output.length > SCAN_TAIL ? output.slice(-SCAN_TAIL) : output;
}

/**
 * The lines of `text` one at a time, last first when `backwards`; `visit` returns true to stop. Never split into an
 * array: 100,000 short lines held at once cost the hook some 20 MB (issue 11: peak memory under 64 MiB).
 */
function eachLine(text: string, backwards: boolean, visit: (line: string) => boolean): void {
  if (backwards) {
    for (let end = text.length; end >= 0; ) {
      // lastIndexOf clamps a negative start to 0, which would find a leading newline again and again.
      const start = end === 0 ? 0 : text.lastIndexOf("\n", end - 1) + 1;
      if (visit(text.slice(start, end))) return;
      end = start - 1;
    }
    return;
  }
  for (let start = 0; start <= text.length; ) {
    const newline = text.indexOf("\n", start);
    const end = newline < 0 ? text.length : newline;
    if (visit(text.slice(start, end))) return;
    start = end + 1;
  }
}

function isFailLine(line: string): boolean {
  if (TAP_NOT_OK.test(line)) return !TAP_DIRECTIVE.test(line);
  return FAIL_SIGNALS.some((signal) => signal.test(line));
}

/** Spec 4.7: failed on any failure signal, else passed on any pass signal; summary = last matching line (trimmed, uncapped: the caller redacts, then caps). */
export function testVerdict(output: string): { verdict: Outcome; summary: string | null } {
  let lastFail: string | null = null;
  let lastPass: string | null = null;
  eachLine(scanWindow(output), false, (rawLine) => {
    const line = rawLine.endsWith("\r") ? rawLine.slice(0, -1) : rawLine;
    if (isFailLine(line)) lastFail = line;
    else if (PASS_SIGNALS.some((signal) => signal.test(line))) lastPass = line;
    return false;
  });
  const pick = (line: string | null) => (line === null ? null : line.trim());
  if (lastFail !== null) return { verdict: "failed", summary: pick(lastFail) };
  if (lastPass !== null) return { verdict: "passed", summary: pick(lastPass) };
  return { verdict: "unknown", summary: null };
}

const EXIT_LINE = /^\s*(?:Process exited with code|Exit code:)\s*(-?\d+)\b/i;
const ERROR_EXIT = /(?:exit code:?|exited with code)\s*(-?\d+)/i;

/** Spec 4.5 rule 3: the last `Process exited with code N` / `Exit code: N` line decides. */
export function exitLineCode(output: string): number | null {
  let code: number | null = null;
  eachLine(scanWindow(output), true, (line) => {
    const match = EXIT_LINE.exec(line);
    if (match) code = Number(match[1]);
    return match !== null;
  });
  return code;
}

export type OutcomeInput = {
  command: string;
  failureEvent: boolean;
  error: string | null;
  response: ToolResponse | null;
  /** Spec 4.5 rule 5 applies to harnesses that route non-zero exits to PostToolUseFailure. */
  impliesSuccess: boolean;
};

/** Spec 4.5: the first rule that applies wins. */
export function commandOutcome(input: OutcomeInput): CommandOutcome & { testRunner: boolean } {
  const testRunner = isTestRunner(input.command);
  // A failure event carries the command's output in its error text (Claude: "Exit code 1\n<output>").
  const output = input.response?.text || (input.failureEvent ? (input.error ?? "") : "");
  const decided = (outcome: Outcome, exitCode: number | null, summary: string | null = null) => ({ outcome, exitCode, summary, testRunner });
  const verdict = testRunner ? testVerdict(output) : null;
  const summary = verdict?.summary ?? null;

  if (input.failureEvent) {
    const match = input.error ? ERROR_EXIT.exec(input.error) : null;
    return decided("failed", match ? Number(match[1]) : null, summary);
  }
  const structured = input.response?.exitCode ?? null;
  if (structured !== null) return decided(structured === 0 ? "passed" : "failed", structured, summary);
  const line = exitLineCode(output);
  if (line !== null) return decided(line === 0 ? "passed" : "failed", line, summary);
  // Claude/Antigravity send PostToolUse only for exit 0, so a passing summary there also means exit 0.
  const implied = input.impliesSuccess && input.response?.structured === true && !input.response.interrupted;
  if (verdict && verdict.verdict !== "unknown") return decided(verdict.verdict, implied && verdict.verdict === "passed" ? 0 : null, summary);
  if (implied) return decided("passed", 0, summary);
  return decided("unknown", null, summary);
}
