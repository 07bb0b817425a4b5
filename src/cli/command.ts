/**
 * Commands are declared in citty's shape (`meta`, `args`, `run`) so that citty renders their help. This
 * `defineCommand` is citty's identity helper without loading citty's runtime on a hook's path.
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
