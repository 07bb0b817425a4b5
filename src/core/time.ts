/** Spec 0.5: ISO-8601 UTC with milliseconds. */
export function isoNow(now: Date = new Date()): string {
  return now.toISOString();
}

/** Spec 2.4 slug: lowercase, runs of non [a-z0-9] become `-`, trimmed, at most 60 characters. */
export function slugify(text: string, fallback = "run"): string {
  const slug = text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60)
    .replace(/-+$/g, "");
  return slug || fallback;
}
