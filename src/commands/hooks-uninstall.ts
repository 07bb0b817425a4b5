import { notImplemented } from "./not-implemented.ts";

export default notImplemented("hooks:uninstall", "Remove aioson's handlers from each harness's configuration");
