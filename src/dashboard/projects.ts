/**
 * The projects the dashboard shows: every project of the user's registry that still has a store, or only the one
 * given on the command line. The page names a project by an id (a hash of its root), never by a path, so no request
 * can make the server open a path of its choosing.
 */
import { createHash } from "node:crypto";
import { basename } from "node:path";
import { listRegisteredProjects } from "../store/registry.ts";

export type Project = { id: string; root: string; name: string };

export function projectId(root: string): string {
  return createHash("sha256").update(root).digest("hex").slice(0, 16);
}

function project(root: string): Project {
  return { id: projectId(root), root, name: basename(root) || root };
}

export class Projects {
  constructor(readonly single: string | null) {}

  /** Re-read on every call: a project whose first store appears meanwhile shows up on the next reload. */
  list(): Project[] {
    if (this.single !== null) return [project(this.single)];
    return listRegisteredProjects().map((entry) => project(entry.root));
  }

  find(id: string): Project | null {
    return this.list().find((p) => p.id === id) ?? null;
  }
}
