import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { closeStore, openStore } from "../../src/store/db.ts";
import { BINARY, cleanupTemp, rows, tempDir, testEnv } from "../helpers.ts";
import { fixtureProject, write } from "./fixture.ts";

/**
 * The judge against a local stub on 127.0.0.1: answers, answers late, answers garbage, refuses. The user turns the
 * judge on in the user config of the temp HOME (a project file cannot: test/security/jev-exfiltration.test.ts).
 */

type Seen = { auth: string | null; body: { model: string; state: { file: string; rules: Array<{ path: string; says: string[] }> }; questions: Record<string, { type: string }> } };

let mode: "noul-low" | "noul-high" | "garbage" | "late" = "noul-low";
const seen: Seen[] = [];
let server: ReturnType<typeof Bun.serve>;

beforeAll(() => {
  server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(request) {
      seen.push({ auth: request.headers.get("authorization"), body: (await request.json()) as Seen["body"] });
      if (mode === "garbage") return new Response("<html>bad gateway</html>", { status: 200 });
      if (mode === "late") await Bun.sleep(5_000);
      const count = Object.keys(seen.at(-1)?.body.questions ?? {}).length;
      const answers: Record<string, unknown> = {};
      for (let i = 0; i < count; i++) answers[`applies_${i}`] = { type: "noul", noul: mode === "noul-low" ? 0.2 : 0.9 };
      return Response.json({ answers });
    },
  });
});
afterAll(() => {
  server.stop(true);
  cleanupTemp();
});

/** A temp HOME whose user config enables the judge at `endpoint` with a key of its own. */
function configure(endpoint: string): string {
  const home = tempDir("aioson-home-");
  mkdirSync(join(home, ".config", "aioson"), { recursive: true });
  writeFileSync(join(home, ".config", "aioson", "config.json"), JSON.stringify({ jev: { enabled: true, endpoint, min_noul: 0.6, api_key: "test-key" } }));
  return home;
}

/** Async spawn: the stub lives in this process, so a blocking spawn would starve it. */
async function guardAsync(project: string, home: string, event: unknown, args: string[] = []): Promise<{ json: unknown; text: string }> {
  const child = Bun.spawn([BINARY, "context:guard", project, "--json", ...args], {
    cwd: home,
    env: testEnv(home, { OPENROUTER_API_KEY: undefined, TYPESAFE_API_KEY: undefined }),
    stdin: new TextEncoder().encode(JSON.stringify(event)),
    stdout: "pipe",
    stderr: "pipe",
  });
  const stdout = await new Response(child.stdout).text();
  await child.exited;
  expect(child.exitCode).toBe(0);
  const json = JSON.parse(stdout) as { hookSpecificOutput?: { additionalContext?: string } };
  return { json, text: json.hookSpecificOutput?.additionalContext ?? "" };
}

const pricing = (project: string, session = "s-1") =>
  write(join(project, "src/services/pricing.js"), "export function totalPrice(items) {\n  return items.reduce((sum, item) => sum + item.price * item.amount, 0);\n}\n", { session_id: session });

const endpoint = () => `http://127.0.0.1:${server.port}/decisions`;

describe("Jev judge", () => {
  test("a low noul drops the only vocabulary rule; the request carries the rule and the file", async () => {
    const project = fixtureProject();
    const home = configure(endpoint());
    mode = "noul-low";
    seen.length = 0;
    const run = await guardAsync(project, home, pricing(project));
    expect(run.json).toEqual({});
    expect(seen).toHaveLength(1);
    expect(seen[0]?.auth).toBe("Bearer test-key");
    expect(seen[0]?.body.model).toBe("typesafe/jev-1.13");
    expect(seen[0]?.body.state.file).toBe("src/services/pricing.js");
    expect(seen[0]?.body.state.rules.map((r) => r.path)).toEqual([".aioson/rules/money-values.md"]);
    expect(seen[0]?.body.state.rules[0]?.says).toHaveLength(2);
    expect(seen[0]?.body.questions.applies_0?.type).toBe("noul");
  });

  test("a high noul keeps the rule; the verdict is cached for the session and asked again after 10 minutes", async () => {
    const project = fixtureProject();
    const home = configure(endpoint());
    mode = "noul-high";
    seen.length = 0;
    expect((await guardAsync(project, home, pricing(project))).text).toContain("Rule .aioson/rules/money-values.md:");
    expect(seen).toHaveLength(1);
    expect((await guardAsync(project, home, pricing(project))).text).toContain("Rule .aioson/rules/money-values.md:");
    expect(seen).toHaveLength(1);
    await guardAsync(project, home, pricing(project, "another-session"));
    expect(seen).toHaveLength(2);
    const cacheFile = join(project, ".aioson", "cache", "jev", "guard-verdicts.json");
    expect(readFileSync(join(project, ".aioson", "cache", "jev", ".gitignore"), "utf8")).toBe("*\n");
    const cache = JSON.parse(readFileSync(cacheFile, "utf8")) as Record<string, { at: string }>;
    for (const entry of Object.values(cache)) entry.at = new Date(Date.now() - 11 * 60_000).toISOString();
    writeFileSync(cacheFile, JSON.stringify(cache));
    await guardAsync(project, home, pricing(project));
    expect(seen).toHaveLength(3);
  });

  test("--no-jev sends nothing", async () => {
    const project = fixtureProject();
    const home = configure(endpoint());
    mode = "noul-low";
    seen.length = 0;
    expect((await guardAsync(project, home, pricing(project), ["--no-jev"])).text).toContain("money-values.md");
    expect(seen).toHaveLength(0);
  });

  test("a violation-backed rule is never sent to the judge", async () => {
    const project = fixtureProject();
    const home = configure(endpoint());
    mode = "noul-low";
    seen.length = 0;
    const event = write(join(project, "src/services/pricing.js"), "// naming convention check\nexport function calcularPreco(item) {\n  return item.price * item.amount;\n}\n");
    const run = await guardAsync(project, home, event);
    expect(seen[0]?.body.state.rules.map((r) => r.path)).toEqual([".aioson/rules/money-values.md"]);
    expect(run.text).toContain("Rule .aioson/rules/source-code-language-convention.md — source-code-language found a new violation");
    expect(run.text).not.toContain("money-values");
  });

  test("a garbage answer keeps the injection and is recorded as unavailable", async () => {
    const project = fixtureProject();
    const store = openStore(project);
    if (store) closeStore(store);
    const home = configure(endpoint());
    mode = "garbage";
    seen.length = 0;
    expect((await guardAsync(project, home, pricing(project))).text).toContain("money-values.md");
    expect(seen).toHaveLength(1);
    const [row] = rows<{ payload_json: string }>(project, "SELECT payload_json FROM execution_events WHERE event_type = 'guard_injected'");
    expect(JSON.parse(row?.payload_json ?? "{}").jev).toEqual({ status: "unavailable", judged: 0, dropped: 0, min_noul: 0.6 });
  });

  test("a refused connection keeps the injection", async () => {
    const project = fixtureProject();
    const closed = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("") });
    const port = closed.port;
    closed.stop(true);
    const home = configure(`http://127.0.0.1:${port}/decisions`);
    expect((await guardAsync(project, home, pricing(project))).text).toContain("money-values.md");
  });

  test("an answer later than the 3 s deadline keeps the injection", async () => {
    const project = fixtureProject();
    const home = configure(endpoint());
    mode = "late";
    seen.length = 0;
    expect((await guardAsync(project, home, pricing(project))).text).toContain("money-values.md");
    expect(seen).toHaveLength(1);
  }, 15_000);

  test("an endpoint that is neither the route's nor loopback makes the config invalid: nothing is sent, rules kept", async () => {
    const project = fixtureProject();
    const home = configure("https://judge.example.com/decisions");
    seen.length = 0;
    expect((await guardAsync(project, home, pricing(project))).text).toContain("money-values.md");
    expect(seen).toHaveLength(0);
  });
});
