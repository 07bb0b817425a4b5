import { defineCommand, type CommandDef } from "../cli/command.ts";
import { CommandError } from "../core/output.ts";

/** Placeholder for a command whose issue has not landed yet: a clear error, exit status 2. */
export function notImplemented(name: string, description: string): CommandDef {
  return defineCommand({
    meta: { name, description: `${description} (not implemented yet)` },
    run() {
      throw new CommandError(`${name} is not implemented yet in this build of aioson.`, 2);
    },
  });
}
