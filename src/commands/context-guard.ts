import { notImplemented } from "./not-implemented.ts";

export default notImplemented("context:guard", "Inject the project rules that govern a pending file write");
