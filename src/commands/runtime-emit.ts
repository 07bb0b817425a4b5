import { defineCommand } from "../cli/command.ts";
import { printJson } from "../core/output.ts";
import { say } from "../human/lazy.ts";
import {
  DIR_ARG,
  JSON_ARG,
  capSummary,
  commaList,
  numberOption,
  requiredAgent,
  textOption,
  
  userRoot,
} from "../runtime/args.ts";
import { emitLive, emitStandalone, parseMeta, type EmitInput } from "../runtime/emit.ts";
import { closeStore, openStore, withStoreTransaction } from "../store/db.ts";

const stripDollar = (skill: string): string => skill.replace(/^\$+/, "");

export default defineCommand({
  meta: { name: "runtime:emit", description: "Record a manual runtime event" },
  args: {
    dir: DIR_ARG,
    agent: { type: "string", description: "Agent id (required), stored as @<agent>" },
    type: { type: "string", description: "Event type (default note)" },
    summary: { type: "string", description: "Event summary" },
    message: { type: "string", description: "Alias of --summary" },
    title: { type: "string", description: "Title (micro-task or standalone task)" },
    refs: { type: "string", description: "Comma list of references" },
    "used-skills": { type: "string", description: "Comma list of skills used" },
    skill: { type: "string", description: "Comma list of skills used" },
    "plan-step": { type: "string", description: "Plan step id" },
    meta: { type: "string", description: "JSON object stored in the payload" },
    "worker-status": { type: "string", description: "Worker status column" },
    verdict: { type: "string", description: "Verdict column (upper-cased)" },
    "token-count": { type: "string", description: "Token count column" },
    "progress-pct": { type: "string", description: "Progress percentage column" },
    limit: { type: "string", description: "Accepted for compatibility" },
    json: JSON_ARG,
  },
  async run({ args }) {
    const agent = requiredAgent(args.agent, "Required option missing: --agent");
    const type = textOption(args.type) ?? "note";
    const title = textOption(args.title);
    const input: EmitInput = {
      agent,
      type,
      title,
      summary: capSummary(textOption(args.summary) ?? textOption(args.message) ?? title ?? `${type} emitted by @${agent}`),
      refs: commaList(args.refs),
      skills: [...new Set([...commaList(args["used-skills"], stripDollar), ...commaList(args.skill, stripDollar)])],
      planStep: textOption(args["plan-step"]),
      meta: parseMeta(textOption(args.meta)),
      workerStatus: textOption(args["worker-status"]),
      verdict: textOption(args.verdict),
      tokenCount: numberOption(args["token-count"]),
      progressPct: numberOption(args["progress-pct"]),
    };
    const root = userRoot(args.dir);
    const store = openStore(root);
    if (!store) throw new Error("The runtime store could not be opened.");
    try {
      const outcome = withStoreTransaction(
        store,
        () => emitLive(store.db, root, store.path, input) ?? { result: emitStandalone(store.db, root, store.path, input), publish: () => {} },
      );
      outcome.publish();
      const { result } = outcome;
      if (args.json) printJson(result);
      else if (result.open) await say("success", `Live event recorded: ${result.agent} | ${type} | ${result.sessionKey} (${store.path})`);
      else await say("success", `Standalone runtime event recorded: ${result.agent} | ${type} | run: ${result.runKey} (${store.path})`);
    } finally {
      closeStore(store);
    }
  },
});
