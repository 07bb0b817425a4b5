import { defineCommand } from "../cli/command.ts";
import { CommandError, printJson } from "../core/output.ts";
import { say } from "../human/lazy.ts";
import { DIR_ARG, JSON_ARG, capSummary, requiredAgent, textOption, userRoot } from "../runtime/args.ts";
import { appendAgentDone, clearStalePointer, parseArtifactList, publishAgentDone, recordStandaloneDone } from "../session/agent-done.ts";
import { findValidPointerRun } from "../session/sessions.ts";
import { closeStore, openStore, withStoreTransaction } from "../store/db.ts";

function doneStatus(value: unknown): "completed" | "failed" {
  const text = textOption(value) ?? "completed";
  if (text === "completed" || text === "failed") return text;
  throw new CommandError(`Invalid --status: ${text} (expected completed or failed).`);
}

export default defineCommand({
  meta: { name: "agent:done", description: "Record that an agent finished its turn (minimal)" },
  args: {
    dir: DIR_ARG,
    agent: { type: "string", description: "Agent id (required)" },
    summary: { type: "string", description: "What was done" },
    message: { type: "string", description: "Alias of --summary" },
    title: { type: "string", description: "Task title when no session is open" },
    status: { type: "string", description: "completed (default) or failed, when no session is open" },
    verdict: { type: "string", description: "Verdict (upper-cased)" },
    "plan-step": { type: "string", description: "Plan step id" },
    artifacts: { type: "string", description: "Comma list of produced files" },
    json: JSON_ARG,
  },
  async run({ args }) {
    const agent = requiredAgent(args.agent, "--agent is required");
    const status = doneStatus(args.status);
    const summary = capSummary(textOption(args.summary) ?? textOption(args.message) ?? `@${agent} session completed`);
    const verdict = textOption(args.verdict);
    const planStep = textOption(args["plan-step"]);
    const artifacts = parseArtifactList(args.artifacts);
    const root = userRoot(args.dir);
    const store = openStore(root);
    if (!store) throw new Error("The runtime store could not be opened.");
    try {
      const live = withStoreTransaction(store, () => {
        const found = findValidPointerRun(store.db, root, agent);
        if (!found) return null;
        return { run: found.run, event: appendAgentDone(store.db, found.run.run_key, { summary, verdict, planStep, artifacts }) };
      });
      if (live) {
        publishAgentDone(root, live.run, live.event);
        const result = { ok: true, targetDir: root, dbPath: store.path, agent: `@${agent}`, mode: "live_event", runKey: live.run.run_key };
        if (args.json) printJson(result);
        else await say("success", `agent:done — @${agent} | live session active, event logged | run: ${live.run.run_key} (${store.path})`);
        return;
      }
      const title = textOption(args.title);
      const done = withStoreTransaction(store, () => recordStandaloneDone(store.db, { agent, summary, title, status, verdict, planStep, artifacts }));
      clearStalePointer(root, agent);
      const result = { ok: true, targetDir: root, dbPath: store.path, agent: `@${agent}`, mode: "standalone", taskKey: done.taskKey, runKey: done.runKey, status };
      if (args.json) printJson(result);
      else await say("success", `agent:done — @${agent} | task: ${done.taskKey} | run: ${done.runKey} (${store.path})`);
    } finally {
      closeStore(store);
    }
  },
});
