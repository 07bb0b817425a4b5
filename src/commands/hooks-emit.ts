import { notImplemented } from "./not-implemented.ts";

export default notImplemented("hooks:emit", "Record a harness hook event (reads the payload on stdin)");
