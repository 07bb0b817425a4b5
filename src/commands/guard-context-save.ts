import { notImplemented } from "./not-implemented.ts";

export default notImplemented("guard:context-save", "Save a session snapshot before compaction");
