/** A background process started by a hook (core/detached.ts) steps aside for the agent's own work. Not on a hook path. */
import { setPriority } from "node:os";

/** The process's priority goes down (nice 10), where permitted: the agent's hooks come first. */
export function lowerPriority(): void {
  try {
    setPriority(10);
  } catch {
    // Not permitted here: the work runs at the hook's priority.
  }
}
