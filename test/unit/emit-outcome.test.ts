import { describe, expect, test } from "bun:test";
import { commandOutcome, exitLineCode, isTestRunner, testVerdict } from "../../src/emit/outcome.ts";
import type { ToolResponse } from "../../src/harness/types.ts";

const text = (output: string): ToolResponse => ({ text: output, exitCode: null, structured: false, interrupted: false });

describe("isTestRunner (spec 4.6)", () => {
  test.each([
    "npm test", "npm t", "npm run test:unit", "CI=1 NODE_ENV=test npx vitest run", "cd app && pnpm test", "pnpm exec jest --ci",
    "poetry run pytest -q", "python3 -m pytest tests", "go test ./...", "cargo nextest run", "./gradlew test", "vendor/bin/phpunit",
    "php artisan test", "bundle exec rspec", "make test", "git stash && bun test | tee out.txt", "uv run pytest",
  ])("%s is a test runner", (command) => expect(isTestRunner(command)).toBe(true));

  test.each(["git log", "npm install", "npm run build", "echo npm test", "grep -r jest .", "testify", "make", "npm run testing"])("%s is not", (command) =>
    expect(isTestRunner(command)).toBe(false),
  );
});

describe("testVerdict (spec 4.7)", () => {
  test.each([
    ["Tests: 1 failed, 9 passed, 10 total", "failed"],
    ["3 failing", "failed"],
    ["Tests run: 5, Failures: 2, Errors: 0", "failed"],
    ["FAIL src/cart.test.ts", "failed"],
    ["--- FAIL: TestX (0.01s)", "failed"],
    ["test result: FAILED. 1 passed; 1 failed", "failed"],
    ["not ok 2 - breaks", "failed"],
    ["# fail 2", "failed"],
    ["1 error", "failed"],
    ["Tests: 10 passed, 10 total", "passed"],
    ["12 passing (30ms)", "passed"],
    ["# pass 3\n# fail 0", "passed"],
    ["test result: ok. 3 passed; 0 failed", "passed"],
    ["ok  \texample.com/pkg\t0.1s", "passed"],
    ["OK (5 tests)", "passed"],
    ["Ran 4 tests in 0.001s\n\nOK", "passed"],
    ["not ok 3 - later # TODO\n# fail 0", "passed"],
    ["not ok 4 - x # skip not ready\nok 1 - y", "passed"],
    ["bun test v1.4.5\n\n 12 pass\n 0 fail\n 30 expect() calls", "passed"],
    ["bun test v1.4.5\n\n 11 pass\n 1 fail\n 30 expect() calls", "failed"],
    ["Finished in 0.5 seconds\n12 examples, 0 failures", "passed"],
    ["Finished in 0.5 seconds\n12 examples, 2 failures", "failed"],
    ["the pass was closed", "unknown"],
    ["0 failed, 0 errors", "unknown"],
    ["", "unknown"],
    ["Failed to compile", "unknown"],
  ] as const)("%p → %s", (output, verdict) => expect(testVerdict(output).verdict).toBe(verdict));

  test("summary is the last line of the winning verdict, trimmed", () => {
    expect(testVerdict("FAIL a\n  Tests: 1 failed, 2 passed  \nDone").summary).toBe("Tests: 1 failed, 2 passed");
    expect(testVerdict("ok  pkg/a\n--- FAIL: TestB\nok  pkg/c").summary).toBe("--- FAIL: TestB");
  });
});

describe("exitLineCode", () => {
  test("the last exit line wins", () => {
    expect(exitLineCode("Exit code: 1\nretrying\nProcess exited with code 0\n")).toBe(0);
    expect(exitLineCode("  exit code: -1")).toBe(-1);
    expect(exitLineCode("nothing here")).toBeNull();
  });
});

describe("commandOutcome (spec 4.5 ordering)", () => {
  const base = { command: "npm test", failureEvent: false, error: null, response: null, impliesSuccess: false };
  test("a failure event is failed, with the exit code from the error", () => {
    expect(commandOutcome({ ...base, failureEvent: true, error: "Command failed with exit code 127" })).toMatchObject({ outcome: "failed", exitCode: 127 });
    expect(commandOutcome({ ...base, failureEvent: true, error: "interrupted" })).toMatchObject({ outcome: "failed", exitCode: null });
    expect(commandOutcome({ ...base, failureEvent: true, error: "command exited with code 3" }).exitCode).toBe(3);
  });
  test("a failure event's error text carries the test summary", () => {
    expect(commandOutcome({ ...base, failureEvent: true, error: "Exit code 1\nTests: 1 failed, 2 passed" })).toMatchObject({ outcome: "failed", exitCode: 1, summary: "Tests: 1 failed, 2 passed" });
  });
  test("a failing summary on an implied-success harness does not claim exit 0", () => {
    const object = { text: "3 examples, 1 failure", exitCode: null, structured: true, interrupted: false };
    expect(commandOutcome({ ...base, command: "bundle exec rspec", impliesSuccess: true, response: object })).toMatchObject({ outcome: "failed", exitCode: null });
  });
  test("a structured exit code beats the output", () => {
    expect(commandOutcome({ ...base, response: { text: "5 passed", exitCode: 1, structured: true, interrupted: false } })).toMatchObject({ outcome: "failed", exitCode: 1 });
  });
  test("an exit line decides any command", () => {
    expect(commandOutcome({ ...base, command: "ls", response: text("Process exited with code 2") })).toMatchObject({ outcome: "failed", exitCode: 2 });
  });
  test("summaries only count for test runners", () => {
    expect(commandOutcome({ ...base, command: "git log", response: text("3 failing tests") }).outcome).toBe("unknown");
    expect(commandOutcome({ ...base, response: text("3 failing tests") }).outcome).toBe("failed");
  });
  test("implied success only for an object response that was not interrupted", () => {
    const object = { text: "", exitCode: null, structured: true, interrupted: false };
    expect(commandOutcome({ ...base, command: "ls", impliesSuccess: true, response: object })).toMatchObject({ outcome: "passed", exitCode: 0 });
    expect(commandOutcome({ ...base, command: "ls", impliesSuccess: true, response: { ...object, interrupted: true } }).outcome).toBe("unknown");
    expect(commandOutcome({ ...base, command: "ls", impliesSuccess: true, response: text("") }).outcome).toBe("unknown");
    expect(commandOutcome({ ...base, command: "ls", impliesSuccess: false, response: object }).outcome).toBe("unknown");
  });
});
