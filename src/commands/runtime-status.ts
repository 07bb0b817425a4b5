import { notImplemented } from "./not-implemented.ts";

export default notImplemented("runtime:status", "Show tasks, runs and recent events of the store");
