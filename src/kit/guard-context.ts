/** Judges of the context guards: lesson-injector, session-context, context-save. */
import { logHookProblem } from "../core/hook-log.ts";
import { PASS, type Decision } from "./dialect.ts";
import { sessionId, stringField } from "./payload.ts";
import type { GuardContext } from "./run.ts";

export async function lessonInjector(context: GuardContext): Promise<Decision> {
  const prompt = stringField(context.payload, "prompt", "chatMessage", "user_prompt", "userPrompt", "message");
  if (!prompt.trim()) return PASS;
  const lessons = await import("./lessons.ts");
  const all = lessons.loadLessons(context.root, lessons.lessonDirs(context.root, context.section.dirs));
  const picked = lessons.pickLessons(prompt, all, context.section.limit ?? lessons.DEFAULT_LIMIT);
  if (picked.lessons.length === 0) return PASS;
  return { kind: "context", text: lessons.lessonsContext(picked) };
}

export async function sessionContextGuard(context: GuardContext): Promise<Decision> {
  const { sessionContext } = await import("./session-context.ts");
  const text = sessionContext(context.dir, context.root);
  return text ? { kind: "context", text } : PASS;
}

export async function contextSave(context: GuardContext): Promise<Decision> {
  const root = context.root;
  if (!root) return PASS;
  const [{ openStore, closeStore }, save, { sanitizeItem }] = await Promise.all([
    import("../store/db.ts"),
    import("./context-save.ts"),
    import("../text/sanitize.ts"),
  ]);
  const store = openStore(root, { mustExist: true });
  if (!store) return PASS;
  const id = sessionId(context.payload);
  let markdown: string;
  try {
    const rows = save.sessionRows(store.db, id);
    // Every recorded item in it is sanitised (and so redacted) by buildSnapshot.
    markdown = save.snapshotMarkdown(save.buildSnapshot(id, rows), new Date());
  } finally {
    closeStore(store);
  }
  const { path, rejected } = save.snapshotPath(root, context.section.dir, id);
  if (rejected) logHookProblem(root, "guard:context-save", `kit.json context-save.dir "${context.section.dir}" leaves the project; using ${save.DEFAULT_SNAPSHOT_DIR}`);
  save.writeSnapshot(root, path, markdown);
  // The folder comes from kit.json and the name from the session id: the path is project text too.
  const shown = sanitizeItem(save.displayPath(root, path));
  const where = shown.kind === "kept" ? ` to ${shown.text}` : "";
  return { kind: "context", text: `Session context snapshot saved${where}. If detail was lost during compaction, read this file to recover state.` };
}
