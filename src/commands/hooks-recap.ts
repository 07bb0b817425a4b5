import { notImplemented } from "./not-implemented.ts";

export default notImplemented("hooks:recap", "Rebuild the post-compaction checkpoint from recorded events");
