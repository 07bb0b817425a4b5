/**
 * Commands are declared in citty's shape (`meta`, `args`, `run`): its types only, never its runtime (src/cli/args.ts
 * parses, src/human/help.ts renders `--help`). This `defineCommand` is citty's identity helper.
 */
import type { ArgsDef, CommandDef } from "citty";

export type { ArgsDef, CommandDef };

/**
 * Returns the definition widened to `CommandDef`: citty's `CommandDef<T>` is not assignable to the lazy
 * command table's type (the `run` context is contravariant in `T`), so the typed definition is widened here, once.
 */
export function defineCommand<const T extends ArgsDef = ArgsDef>(def: CommandDef<T>): CommandDef {
  return def as unknown as CommandDef;
}
