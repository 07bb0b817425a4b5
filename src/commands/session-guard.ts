import { notImplemented } from "./not-implemented.ts";

export default notImplemented("session:guard", "Supervise the agent's session and close it when idle");
