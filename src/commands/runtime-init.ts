import { notImplemented } from "./not-implemented.ts";

export default notImplemented("runtime:init", "Create the runtime store");
