/**
 * Answers computed once per store change, however many browsers ask: ten browsers on one session reload its panels
 * together after every push, and one computation of a long session's panels takes a tenth of a second. An answer is
 * reused only while the store's version (stores.ts `version`) is unchanged and for at most MAX_AGE_MS, because a few
 * facts also come from project files that change without a commit (the next step, the rules re-checked).
 */
const MAX_AGE_MS = 5_000;
const MAX_ENTRIES = 64;

type Entry = { version: string; at: number; body: string };

export class AnswerCache {
  readonly #entries = new Map<string, Entry>();

  get(key: string, version: string | null, compute: () => string, now = Date.now()): string {
    const known = this.#entries.get(key);
    if (version !== null && known && known.version === version && now - known.at <= MAX_AGE_MS) {
      // Most recently used last, so the oldest is dropped first.
      this.#entries.delete(key);
      this.#entries.set(key, known);
      return known.body;
    }
    const body = compute();
    if (version === null) return body;
    this.#entries.delete(key);
    this.#entries.set(key, { version, at: now, body });
    while (this.#entries.size > MAX_ENTRIES) this.#entries.delete(this.#entries.keys().next().value as string);
    return body;
  }
}
