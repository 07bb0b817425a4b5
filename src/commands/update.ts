import { notImplemented } from "./not-implemented.ts";

export default notImplemented("update", "Re-install the hooks and migrate the store");
