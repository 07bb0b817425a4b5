import type { ArgsDef, CommandDef, ParsedArgs } from "citty";
import { declaredOptions, parseCommandArgs } from "./cli/args.ts";
import { versionLine } from "./core/version.ts";
import type { HelpBlock, HelpSection } from "./human/help.ts";

type Area = "Hooks" | "Context" | "Sessions" | "Runtime" | "Project" | "Guards";
/**
 * `hook`: called by a harness, not a person. It exits 0 whatever it is given: an option it does not know is ignored
 * (a person's command refuses it with a suggestion), and `AIOSON=0` switches it to its no-op answer (core/switch.ts).
 */
type Entry = { name: string; area: Area; description: string; hook?: true; load: () => Promise<{ default: CommandDef }> };

/** Every command, loaded lazily so that a hook pays only for the command it runs. */
const COMMANDS: readonly Entry[] = [
  { name: "hooks:install", area: "Hooks", description: "Wire aioson into each harness's hook configuration", load: () => import("./commands/hooks-install.ts") },
  { name: "hooks:uninstall", area: "Hooks", description: "Remove aioson's handlers from each harness's configuration", load: () => import("./commands/hooks-uninstall.ts") },
  { name: "hooks:emit", area: "Hooks", description: "Record a harness hook event (reads the payload on stdin)", hook: true, load: () => import("./commands/hooks-emit.ts") },
  { name: "hooks:recap", area: "Hooks", description: "Rebuild the post-compaction checkpoint from recorded events", hook: true, load: () => import("./commands/hooks-recap.ts") },
  { name: "hooks:doctor", area: "Hooks", description: "Check that the installed hooks really fire, with a fix for each problem", load: () => import("./commands/hooks-doctor.ts") },
  { name: "context:guard", area: "Context", description: "Inject the project rules that govern a pending file write", hook: true, load: () => import("./commands/context-guard.ts") },
  { name: "context:brief", area: "Context", description: "Select the project rules relevant to a task", load: () => import("./commands/context-brief.ts") },
  { name: "context:usage", area: "Context", description: "Report whether injected rules were honoured", load: () => import("./commands/context-usage.ts") },
  { name: "session:guard", area: "Sessions", description: "Supervise the agent's session and close it when idle", load: () => import("./commands/session-guard.ts") },
  { name: "live:start", area: "Sessions", description: "Open a live session for an agent (minimal)", load: () => import("./commands/live-start.ts") },
  { name: "live:status", area: "Sessions", description: "Show the live session of an agent", load: () => import("./commands/live-status.ts") },
  { name: "agent:done", area: "Sessions", description: "Record that an agent finished its turn (minimal)", load: () => import("./commands/agent-done.ts") },
  { name: "dashboard", area: "Sessions", description: "Every agent session on this machine, live in the browser", load: () => import("./commands/dashboard.ts") },
  { name: "runtime:init", area: "Runtime", description: "Create the runtime store", load: () => import("./commands/runtime-init.ts") },
  { name: "runtime:emit", area: "Runtime", description: "Record a manual runtime event", load: () => import("./commands/runtime-emit.ts") },
  { name: "runtime:status", area: "Runtime", description: "Show tasks, runs and recent events of the store", load: () => import("./commands/runtime-status.ts") },
  { name: "runtime:prune", area: "Runtime", description: "Remove events older than the retention period and give the space back", load: () => import("./commands/runtime-prune.ts") },
  { name: "otel:export", area: "Runtime", description: "Send the recorded events not sent yet to an OpenTelemetry collector (OTLP)", load: () => import("./commands/otel-export.ts") },
  { name: "init", area: "Project", description: "Create a minimal AIOSON project and install its hooks", load: () => import("./commands/init.ts") },
  { name: "update", area: "Project", description: "Re-install the hooks and migrate the store", load: () => import("./commands/update.ts") },
  { name: "guard:pre-commit-guard", area: "Guards", description: "Judge git commands before they run (Conventional Commits, push/tag ask)", hook: true, load: () => import("./commands/guard-pre-commit-guard.ts") },
  { name: "guard:verify-claims", area: "Guards", description: "Block a stop whose message names paths no tool touched", hook: true, load: () => import("./commands/guard-verify-claims.ts") },
  { name: "guard:context-confidence-check", area: "Guards", description: "Require tool evidence for medium/low confidence rows", hook: true, load: () => import("./commands/guard-context-confidence-check.ts") },
  { name: "guard:stop-checklist", area: "Guards", description: "Remind the agent of the project's stop checklist", hook: true, load: () => import("./commands/guard-stop-checklist.ts") },
  { name: "guard:output-format", area: "Guards", description: "Remind the agent of the project's output format", hook: true, load: () => import("./commands/guard-output-format.ts") },
  { name: "guard:skill-feedback", area: "Guards", description: "Ask for feedback on the skills used in the turn", hook: true, load: () => import("./commands/guard-skill-feedback.ts") },
  { name: "guard:stop-guards", area: "Guards", description: "Run several Stop guards in one hook and join their reasons", hook: true, load: () => import("./commands/guard-stop-guards.ts") },
  { name: "guard:subagent-audit", area: "Guards", description: "Log every sub-agent start", hook: true, load: () => import("./commands/guard-subagent-audit.ts") },
  { name: "guard:lesson-injector", area: "Guards", description: "Inject matching lessons into the prompt", hook: true, load: () => import("./commands/guard-lesson-injector.ts") },
  { name: "guard:session-context", area: "Guards", description: "Inject project and git context at session start", hook: true, load: () => import("./commands/guard-session-context.ts") },
  { name: "guard:context-save", area: "Guards", description: "Save a session snapshot before compaction", hook: true, load: () => import("./commands/guard-context-save.ts") },
];

const AREAS: readonly Area[] = ["Hooks", "Context", "Sessions", "Runtime", "Project", "Guards"];

/** Spec 0.1: every `a:b` command is also accepted as `a-b`. */
export function findCommand(token: string): Entry | undefined {
  return COMMANDS.find((entry) => entry.name === token || entry.name.replace(":", "-") === token);
}

/** The commands by area, as `aioson --help` lists them (rendered by src/human/help.ts). */
function commandSections(): HelpSection[] {
  return AREAS.map((area) => ({ title: `${area}:`, rows: COMMANDS.filter((e) => e.area === area).map((e) => ({ term: e.name, text: e.description })) }));
}

/** A command's args: a command may declare them as a value, a promise or a function (citty's `Resolvable`). */
async function argsOf(command: CommandDef): Promise<ArgsDef> {
  return (typeof command.args === "function" ? await command.args() : await command.args) ?? {};
}

/** A help page on stdout: as wide as the terminal, coloured only on a colour terminal (src/human/style.ts). */
async function printHelp(blocks: readonly HelpBlock[]): Promise<void> {
  const { renderHelp } = await import("./human/help.ts");
  const { colourFor, streamWidth } = await import("./human/style.ts");
  console.log(renderHelp(blocks, { colour: colourFor(1), width: streamWidth(1) }));
}

/** `aioson --help`: the commands by area, in the same layout as a command's page. */
function rootHelp(): HelpBlock[] {
  return [{ paragraph: versionLine() }, { paragraph: "Usage: aioson <command> [dir] [--flag[=value]] ..." }, ...commandSections(), { paragraph: "Run `aioson <command> --help` for a command's options." }];
}

/** `aioson <command> --help`, from the command's own description and args. */
async function commandHelpOf(entry: Entry, command: CommandDef): Promise<HelpBlock[]> {
  const { commandHelp } = await import("./human/help.ts");
  const meta = typeof command.meta === "function" ? await command.meta() : await command.meta;
  return commandHelp(entry.name, meta?.description ?? entry.description, await argsOf(command));
}

const HELP_FLAGS = new Set(["--help", "-h", "help"]);
const VERSION_FLAGS = new Set(["--version", "-v"]);

async function run(argv: readonly string[]): Promise<number> {
  const commandIndex = argv.findIndex((token) => !token.startsWith("-"));
  if (commandIndex < 0 || argv[commandIndex] === "help") {
    if (argv.some((token) => VERSION_FLAGS.has(token)) && !argv.some((token) => HELP_FLAGS.has(token))) {
      console.log(versionLine());
      return 0;
    }
    await printHelp(rootHelp());
    return argv.length === 0 || argv.some((token) => HELP_FLAGS.has(token)) ? 0 : 1;
  }
  const token = argv[commandIndex] as string;
  const entry = findCommand(token);
  const rawArgs = [...argv.slice(0, commandIndex), ...argv.slice(commandIndex + 1)];
  const json = rawArgs.includes("--json") || rawArgs.includes("-j");
  if (!entry) {
    const { unknownCommandError } = await import("./cli/suggest.ts");
    const { reportError } = await import("./human/output.ts");
    const { renderHelp } = await import("./human/help.ts");
    const { streamWidth } = await import("./human/style.ts");
    // The list goes under the error, on stderr; its colour is the error's (output.ts), its width stderr's.
    const list = renderHelp(commandSections(), { colour: false, width: streamWidth(2) }).split("\n");
    return reportError(unknownCommandError(token, COMMANDS.map((e) => e.name), list), token, json);
  }
  const command = (await entry.load()).default;
  if (rawArgs.some((arg) => arg === "--help" || arg === "-h")) {
    await printHelp(await commandHelpOf(entry, command));
    return 0;
  }
  try {
    const argsDef = await argsOf(command);
    const { args, unknown } = parseCommandArgs(rawArgs, argsDef);
    if (unknown.length > 0 && !entry.hook) {
      const { unknownOptionsError } = await import("./cli/suggest.ts");
      throw unknownOptionsError(entry.name, unknown, declaredOptions(argsDef));
    }
    await command.run?.({ rawArgs: [...rawArgs], args: args as ParsedArgs<ArgsDef>, cmd: command });
  } catch (error) {
    const { reportError } = await import("./human/output.ts");
    return reportError(error, entry.name, json);
  }
  return typeof process.exitCode === "number" ? process.exitCode : 0;
}

/** Entry point; kept in a function so that the build can use --bytecode (no top-level await). */
function main(): void {
  run(process.argv.slice(2)).then(
    (code) => process.exit(code),
    (error: unknown) => {
      console.error(`Error: ${error instanceof Error ? error.message : String(error)}`);
      process.exit(1);
    },
  );
}

main();
