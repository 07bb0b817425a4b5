import { notImplemented } from "./not-implemented.ts";

export default notImplemented("guard:session-context", "Inject project and git context at session start");
