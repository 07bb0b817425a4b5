import { notImplemented } from "./not-implemented.ts";

export default notImplemented("init", "Create a minimal AIOSON project and install its hooks");
