import { CommandError } from "../core/output.ts";
import { openStore, type Store } from "../store/db.ts";
import { dbPath } from "../store/paths.ts";

export function storeMissingMessage(path: string): string {
  return `Runtime store not found: ${path}. Run: aioson runtime:init`;
}

/** Opens an existing store for a people-facing reader, or fails with the spec's hint. */
export function openExistingStore(root: string): Store {
  const store = openStore(root, { mustExist: true });
  if (!store) throw new CommandError(storeMissingMessage(dbPath(root)));
  return store;
}
