import { notImplemented } from "./not-implemented.ts";

export default notImplemented("live:status", "Show the live session of an agent");
