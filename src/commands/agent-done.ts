import { notImplemented } from "./not-implemented.ts";

export default notImplemented("agent:done", "Record that an agent finished its turn (minimal)");
