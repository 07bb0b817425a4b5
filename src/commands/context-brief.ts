import { notImplemented } from "./not-implemented.ts";

export default notImplemented("context:brief", "Select the project rules relevant to a task");
