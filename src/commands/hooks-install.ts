import { notImplemented } from "./not-implemented.ts";

export default notImplemented("hooks:install", "Wire aioson into each harness's hook configuration");
