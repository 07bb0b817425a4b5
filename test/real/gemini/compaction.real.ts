/**
 * Gemini CLI 0.61.0 compressions. PreCompress fires before every model call, so aioson records a compression only
 * when a request opens with a `<state_snapshot>` it has not seen: an automatic one (a resumed session whose model
 * reported 700,000 prompt tokens, over half of gemini-2.5-flash's window) and a manual `/compress`. No hook follows a
 * compression: the checkpoint comes with the next AfterTool, once.
 */
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { LoggedRequest } from "../lib/server.ts";
import { functionResponses, GeminiBench } from "./bench.ts";

const CHECKPOINT = "[AIOSON checkpoint]";

let bench: GeminiBench;
let afterDelivery: LoggedRequest | undefined;
let later: LoggedRequest | undefined;

beforeAll(async () => {
  bench = await GeminiBench.create();
  const P = bench.project;
  await bench.run({ prompt: "write a", script: { turns: [{ tools: [{ name: "write_file", input: { file_path: `${P}/a.txt`, content: "a\n" } }] }, { text: "Wrote a.txt." }] } });
  await bench.run({
    prompt: "continue",
    resume: true,
    script: {
      turns: [
        { text: "Checking.", inputTokens: 700_000, tools: [{ name: "run_shell_command", input: { command: "echo checking", description: "check" } }] },
        { tools: [{ name: "write_file", input: { file_path: `${P}/b.txt`, content: "b\n" } }] },
        (request) => ((afterDelivery = request), { tools: [{ name: "run_shell_command", input: { command: "echo more", description: "more" } }] }),
        (request) => ((later = request), { text: "Done with b." }),
      ],
      compactions: [{ text: "<state_snapshot><overall_goal>write a and b</overall_goal></state_snapshot>" }, { text: "<state_snapshot><overall_goal>write a and b (checked)</overall_goal></state_snapshot>" }],
    },
  });
  await bench.run({ prompt: "/compress", resume: true, script: { turns: [{ text: "Compressed." }], compactions: [{ text: "<state_snapshot><overall_goal>manual</overall_goal></state_snapshot>" }, { text: "<state_snapshot><overall_goal>manual, checked</overall_goal></state_snapshot>" }] } });
  await bench.run({ prompt: "go on", resume: true, script: { turns: [{ tools: [{ name: "write_file", input: { file_path: `${P}/c.txt`, content: "c\n" } }] }, { text: "Wrote c.txt." }] } });
});

afterAll(() => bench?.stop());

describe("Gemini CLI 0.61.0: compressions and the checkpoint", () => {
  test("the model was asked for a snapshot twice per compression (summary and check), four times in all", () => {
    expect(bench.server.requests.filter((request) => request.kind === "compact")).toHaveLength(4);
  });

  test("one marker per compression the model's requests show, though every later request carries its snapshot", () => {
    const carrying = bench.server.requests.filter((request) => request.kind === "turn").map((request) => /<state_snapshot>[\s\S]*?<\/state_snapshot>/.exec(bench.server.wire.firstSentText(request.body))?.[0]).filter((snapshot) => snapshot !== undefined);
    const distinct = [...new Set(carrying)];
    expect(carrying.length).toBeGreaterThan(distinct.length);
    // The automatic compression always shows in the run it happens in; the manual one in the next run's requests.
    expect(distinct.length).toBeGreaterThanOrEqual(1);
    expect(bench.events("event_type = 'compaction'").map((row) => row.payload.trigger)).toEqual(distinct.map(() => "state_snapshot"));
  });

  test("the checkpoint came once, in the tool result after the compression, with what was recorded before it", () => {
    const carrying = (request: LoggedRequest | undefined) => functionResponses(request?.body).filter((text) => text.includes(CHECKPOINT));
    expect(carrying(afterDelivery)).toHaveLength(1);
    expect(carrying(afterDelivery)[0]).toContain("a.txt");
    expect(carrying(later)).toHaveLength(1);
  });
});
