import { notImplemented } from "./not-implemented.ts";

export default notImplemented("live:start", "Open a live session for an agent (minimal)");
