import { notImplemented } from "./not-implemented.ts";

export default notImplemented("guard:pre-commit-guard", "Judge git commands before they run (Conventional Commits, push/tag ask)");
