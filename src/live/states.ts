import { readdirSync } from "node:fs";
import { liveDir } from "../store/paths.ts";
import { readState, type LiveState } from "./state.ts";

/**
 * Every readable `live/*\/state.json`, most recently updated first. The directory name is the session
 * key with `:` as `__`; the key inside the file is authoritative.
 */
export function listStates(root: string): LiveState[] {
  let names: string[];
  try {
    names = readdirSync(liveDir(root));
  } catch {
    return [];
  }
  const states: LiveState[] = [];
  for (const name of names) {
    const state = readState(root, name.replaceAll("__", ":"));
    if (state) states.push(state);
  }
  return states.sort((a, b) => b.updated_at.localeCompare(a.updated_at));
}
