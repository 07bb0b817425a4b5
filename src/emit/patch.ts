/** Spec 4.4: the files an apply_patch text changes, from its `*** ` header lines. */
export type PatchEntry = { path: string; op: "add" | "update" | "move"; from?: string };

export const MAX_PATCH_FILES = 50;

const HEADER = /^\*\*\*\s*(Add File|Update File|Move to|Delete File):\s*(.*)$/;

/** Entries in first-occurrence order, de-duplicated by final path; `normalize` makes paths project-relative. */
export function parsePatchHeaders(patch: string, normalize: (path: string) => string): PatchEntry[] {
  const entries: PatchEntry[] = [];
  let current: PatchEntry | null = null;
  for (const rawLine of patch.split("\n")) {
    const match = HEADER.exec(rawLine.trim());
    if (!match) continue;
    const path = normalize((match[2] ?? "").trim());
    switch (match[1]) {
      case "Add File":
        current = path ? { path, op: "add" } : null;
        if (current) entries.push(current);
        break;
      case "Update File":
        current = path ? { path, op: "update" } : null;
        if (current) entries.push(current);
        break;
      case "Move to":
        if (current && current.op !== "add" && path) {
          current.from = current.op === "move" ? current.from : current.path;
          current.op = "move";
          current.path = path;
        }
        break;
      default:
        // Delete File: not a change worth recording, and it ends the current entry.
        current = null;
    }
  }
  const seen = new Set<string>();
  const unique: PatchEntry[] = [];
  for (const entry of entries) {
    if (seen.has(entry.path)) continue;
    seen.add(entry.path);
    unique.push(entry);
    if (unique.length === MAX_PATCH_FILES) break;
  }
  return unique;
}
