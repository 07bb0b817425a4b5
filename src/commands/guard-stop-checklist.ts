import { notImplemented } from "./not-implemented.ts";

export default notImplemented("guard:stop-checklist", "Remind the agent of the project's stop checklist");
