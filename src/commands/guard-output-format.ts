import { notImplemented } from "./not-implemented.ts";

export default notImplemented("guard:output-format", "Remind the agent of the project's output format");
