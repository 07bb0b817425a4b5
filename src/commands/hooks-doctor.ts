import { defineCommand } from "../cli/command.ts";
import { resolveTargetDir } from "../core/project-root.ts";
import { finish, jsonArg, stringOrUndefined, toolArg, dirArg } from "../install/cli-args.ts";
import { withProgress } from "../human/progress.ts";
import { doctorLines, runDoctor } from "../install/doctor.ts";

export default defineCommand({
  meta: { name: "hooks:doctor", description: "Check that the installed hooks really fire, with a fix for each problem" },
  args: {
    dir: dirArg,
    tool: toolArg,
    "slow-ms": { type: "string", description: "Median latency above which hooks are reported slow (default 500)" },
    json: jsonArg,
  },
  run({ args }) {
    const slow = Number.parseInt(stringOrUndefined(args["slow-ms"]) ?? "500", 10);
    const result = withProgress("Running the installed handlers", (onStep) =>
      runDoctor({
        dir: resolveTargetDir(stringOrUndefined(args.dir) ?? process.cwd()),
        tool: stringOrUndefined(args.tool),
        env: process.env,
        slowMs: Number.isFinite(slow) && slow >= 0 ? slow : 500,
        selfPath: process.execPath,
        onStep,
      }),
    );
    finish({ lines: doctorLines(result), result }, args.json === true);
  },
});
