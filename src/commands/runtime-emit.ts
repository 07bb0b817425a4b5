import { notImplemented } from "./not-implemented.ts";

export default notImplemented("runtime:emit", "Record a manual runtime event");
