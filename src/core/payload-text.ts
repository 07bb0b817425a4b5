/**
 * The bytes of a hook payload, bounded in memory whatever arrives (issue 11: peak memory under 64 MiB). Spec 0.4
 * stores at most 16 MiB, but 16 MiB of JSON costs far more once decoded and parsed (the bytes, the string, the
 * parsed strings, and 64 bytes or so per parsed object: `[{},{},…]` is 300 MB), so:
 * - a payload of at most DIRECT_MAX_BYTES is kept as it is (the usual hook payload is a few KB);
 * - a larger one goes through a byte filter while it is read: every JSON string keeps its first STRING_MAX_BYTES
 *   and its last TAIL_MAX_BYTES around the cut mark. Past OUTPUT_MAX_BYTES kept, VALUES_MAX containers and
 *   separators or DEPTH_MAX levels, the payload is cut after its last complete value and its open containers are
 *   closed: the fields that come first (event, session, tool; a Gemini request's first message) are kept, later ones
 *   dropped. A payload past the spec's 16 MiB, or one with no complete value before a bound, is no payload
 *   ("too-large").
 * Whether anything was dropped is told (`whole`): a guard must not let through what it could not read.
 * Bytes past the bounds are still drained by the reader (a harness writing to a closed pipe would fail).
 */
import { CUT_MARK } from "./labels.ts";

/** Spec 0.4: bytes past this are drained but not looked at. */
export const MAX_STORED_BYTES = 16 * 1024 * 1024;
export const DIRECT_MAX_BYTES = 256 * 1024;
export const STRING_MAX_BYTES = 512 * 1024;
export const TAIL_MAX_BYTES = 64 * 1024;
export const OUTPUT_MAX_BYTES = 3 * 1024 * 1024;
export const VALUES_MAX = 50_000;
/** Nesting deeper than this is no hook payload (and a parser's recursion is bounded too). */
export const DEPTH_MAX = 1_000;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const LETTER_U = 0x75;
/** The cut mark's bytes, encoded on the first cut (a TextEncoder costs a hook that never cuts 0.04 ms). */
let markBytes: Uint8Array | null = null;

function mark(): Uint8Array {
  markBytes ??= new TextEncoder().encode(CUT_MARK);
  return markBytes;
}

/**
 * Copies `[from, to)` of `source` into `target` at `at`. Short spans (an escape, a run between two escapes) are
 * copied byte by byte: a `subarray` view per span is an object, and escape-heavy text has one every few bytes
 * (100,000 of them cost 17 MB before the collector caught up).
 */
function copyBytes(source: Uint8Array, from: number, to: number, target: Uint8Array, at: number): void {
  if (to - from > 64) {
    target.set(source.subarray(from, to), at);
    return;
  }
  for (let index = from; index < to; index++) target[at + index - from] = source[index] as number;
}

function isContinuation(byte: number): boolean {
  return (byte & 0xc0) === 0x80;
}

/** The last bytes of a cut string, with a flag per byte that is inside an escape sequence (no cut may start there). */
class TailRing {
  readonly #bytes = new Uint8Array(TAIL_MAX_BYTES);
  readonly #inEscape = new Uint8Array(TAIL_MAX_BYTES);
  #start = 0;
  length = 0;
  /** Bytes pushed out of the ring since the string was cut. */
  dropped = 0;

  clear(): void {
    this.#start = 0;
    this.length = 0;
    this.dropped = 0;
  }

  push(bytes: Uint8Array, from: number, to: number, inEscape: boolean): void {
    const size = TAIL_MAX_BYTES;
    let begin = from;
    if (to - begin > size) {
      this.dropped += this.length + (to - begin - size);
      begin = to - size;
      this.#start = 0;
      this.length = 0;
    }
    for (let index = begin; index < to; ) {
      const at = (this.#start + this.length) % size;
      const span = Math.min(to - index, size - at);
      copyBytes(bytes, index, index + span, this.#bytes, at);
      this.#inEscape.fill(inEscape ? 1 : 0, at, at + span);
      index += span;
      const over = this.length + span - size;
      if (over > 0) {
        this.#start = (this.#start + over) % size;
        this.dropped += over;
        this.length = size;
      } else this.length += span;
    }
  }

  /**
   * The kept bytes in order. When bytes fell out, from the first one a string may resume at (not inside an escape
   * sequence, not mid-character); otherwise they continue the head exactly and are all kept.
   */
  bytes(): Uint8Array {
    const size = TAIL_MAX_BYTES;
    const ordered = new Uint8Array(this.length);
    const first = Math.min(this.length, size - this.#start);
    ordered.set(this.#bytes.subarray(this.#start, this.#start + first), 0);
    ordered.set(this.#bytes.subarray(0, this.length - first), first);
    if (this.dropped === 0) return ordered;
    let skip = 0;
    while (skip < ordered.length && (this.#inEscape[(this.#start + skip) % size] === 1 || isContinuation(ordered[skip] as number))) skip++;
    return ordered.subarray(skip);
  }
}

/**
 * Filters JSON text byte by byte as it arrives: structure is copied (and counted), a string keeps the first
 * STRING_MAX_BYTES of its content and its last TAIL_MAX_BYTES (where a command's verdict and exit line are), with
 * the cut mark between them; a cut never splits a character or an escape sequence. Past a bound the text is cut at
 * the last safe point (right after an opening bracket, or before a separator: everything before it is complete
 * values) and the containers open there are closed. Not a validator: whatever is not JSON passes through unchanged
 * (and fails to parse later).
 */
export class JsonShrinker {
  // Uninitialised: only the pages written to become resident. The extra DEPTH_MAX bytes hold the closing brackets.
  readonly #out = Buffer.allocUnsafe(OUTPUT_MAX_BYTES + DEPTH_MAX);
  readonly #tail = new TailRing();
  /** The closing bracket of each open container, outermost first; entries past #depth are stale. */
  readonly #closers = new Uint8Array(DEPTH_MAX);
  #depth = 0;
  #length = 0;
  #inString = false;
  /** Bytes of the current escape sequence still to come; -1 right after the backslash. */
  #escape = 0;
  #stringBytes = 0;
  #cut = false;
  #values = 0;
  /** The last safe point: output length and nesting depth there (-1: none yet). */
  #safeLength = -1;
  #safeDepth = 0;
  /** Cut at a safe point and closed: the rest of the input is not looked at. */
  truncated = false;
  /** A string lost the middle between its head and its tail. */
  #stringCut = false;
  /** Past a bound with no safe point: there is no payload. */
  overflow = false;

  write(bytes: Uint8Array): void {
    const n = bytes.length;
    let i = 0;
    // Next quote and backslash of this chunk, searched natively and only once passed: string content costs no loop.
    let quote = -1;
    let backslash = -1;
    while (i < n && !this.overflow && !this.truncated) {
      if (!this.#inString) {
        this.#structure(bytes, i);
        i++;
        continue;
      }
      if (this.#escape !== 0) {
        const byte = bytes[i] as number;
        this.#escape = this.#escape === -1 ? (byte === LETTER_U ? 4 : 0) : this.#escape - 1;
        this.#content(bytes, i, i + 1, true);
        i++;
        continue;
      }
      if (quote < i) quote = indexOrEnd(bytes, QUOTE, i);
      if (backslash < i) backslash = indexOrEnd(bytes, BACKSLASH, i);
      const stop = Math.min(quote, backslash);
      if (stop > i) this.#content(bytes, i, stop, false);
      i = stop;
      if (i === n) break;
      if (i === quote) {
        this.#closeString();
        this.#emit(bytes, i, i + 1);
      } else {
        this.#escape = -1;
        // An escape is kept whole in the head or goes whole to the tail: the head never ends inside one.
        if (!this.#cut && this.#stringBytes >= STRING_MAX_BYTES) this.#cut = true;
        this.#content(bytes, i, i + 1, false);
      }
      i++;
    }
  }

  /** One byte outside strings: brackets and separators move the safe point and count against the bounds. */
  #structure(bytes: Uint8Array, i: number): void {
    const byte = bytes[i] as number;
    if (byte === QUOTE) this.#openString();
    else if (byte === COMMA || byte === OPEN_BRACE || byte === OPEN_BRACKET) {
      if (++this.#values > VALUES_MAX) return this.#stop();
      if (byte === COMMA) this.#safePoint();
      else {
        if (this.#depth === DEPTH_MAX) return this.#stop();
        this.#closers[this.#depth++] = byte === OPEN_BRACE ? CLOSE_BRACE : CLOSE_BRACKET;
      }
    } else if ((byte === CLOSE_BRACE || byte === CLOSE_BRACKET) && this.#depth > 0) this.#depth--;
    this.#emit(bytes, i, i + 1);
    if (byte === OPEN_BRACE || byte === OPEN_BRACKET) this.#safePoint();
  }

  #safePoint(): void {
    this.#safeLength = this.#length;
    this.#safeDepth = this.#depth;
  }

  /**
   * A bound is reached: back to the last safe point and close what is open there. Between that point and now the
   * closers below its depth cannot have changed: replacing one takes a new opening bracket, which moves the point.
   */
  #stop(): void {
    if (this.#safeLength < 0) {
      this.overflow = true;
      return;
    }
    this.#length = this.#safeLength;
    for (let level = this.#safeDepth - 1; level >= 0; level--) this.#out[this.#length++] = this.#closers[level] as number;
    this.truncated = true;
  }

  #openString(): void {
    this.#inString = true;
    this.#stringBytes = 0;
    this.#cut = false;
    this.#tail.clear();
  }

  /** A cut string ends with its tail: whole when nothing fell out of it, else after the cut mark. */
  #closeString(): void {
    this.#inString = false;
    if (!this.#cut) return;
    if (this.#tail.dropped > 0) {
      this.#stringCut = true;
      this.#emit(mark(), 0, mark().length);
    }
    const tail = this.#tail.bytes();
    this.#emit(tail, 0, tail.length);
  }

  /** String content `[from, to)`; `inEscape`: the bytes continue an escape sequence (never a cut point). */
  #content(bytes: Uint8Array, from: number, to: number, inEscape: boolean): void {
    if (this.#cut) return this.#tail.push(bytes, from, to, inEscape);
    let end = to;
    if (!inEscape && this.#stringBytes + (to - from) > STRING_MAX_BYTES) {
      end = from + Math.max(0, STRING_MAX_BYTES - this.#stringBytes);
      // The first byte left for the tail must start a character: back off over continuation bytes.
      while (end > from && isContinuation(bytes[end] as number)) end--;
    }
    this.#emit(bytes, from, end);
    this.#stringBytes += end - from;
    if (end < to) {
      this.#cut = true;
      this.#tail.push(bytes, end, to, false);
    }
  }

  #emit(bytes: Uint8Array, from: number, to: number): void {
    const length = to - from;
    if (length <= 0 || this.truncated || this.overflow) return;
    if (this.#length + length > OUTPUT_MAX_BYTES) return this.#stop();
    copyBytes(bytes, from, to, this.#out, this.#length);
    this.#length += length;
  }

  bytes(): Uint8Array {
    return this.#out.subarray(0, this.#length);
  }

  /** Nothing was dropped: no string lost its middle, no value was cut off. */
  get whole(): boolean {
    return !this.truncated && !this.#stringCut;
  }
}

function indexOrEnd(bytes: Uint8Array, byte: number, from: number): number {
  // The typed-array search itself: Buffer#indexOf (a payload chunk is a Buffer) converts its arguments each call.
  const index = Uint8Array.prototype.indexOf.call(bytes, byte, from);
  return index < 0 ? bytes.length : index;
}

/** The payload bytes read so far, kept within the bounds above. */
export class PayloadCollector {
  #chunks: Uint8Array[] = [];
  #direct = 0;
  #shrinker: JsonShrinker | null = null;
  /** Past a bound nothing can make a payload any more: what was kept is let go (memory for the drain). */
  #overflowed = false;
  /** Every byte seen, kept or not. */
  seen = 0;

  /** `copy`: the bytes sit in a buffer that is read into again, so what is kept is copied out of it. */
  add(bytes: Uint8Array, copy = false): void {
    if (bytes.byteLength === 0) return;
    this.seen += bytes.byteLength;
    if (this.#overflowed) return;
    if (this.seen > MAX_STORED_BYTES) return this.#overflow();
    if (this.#shrinker) return this.#write(this.#shrinker, bytes);
    if (this.#direct + bytes.byteLength <= DIRECT_MAX_BYTES) {
      // A copy, not Buffer#slice (a view of the buffer that is read into again).
      this.#chunks.push(copy ? new Uint8Array(bytes) : bytes);
      this.#direct += bytes.byteLength;
      return;
    }
    const shrinker = new JsonShrinker();
    for (const kept of this.#chunks) shrinker.write(kept);
    this.#chunks = [];
    this.#direct = 0;
    this.#shrinker = shrinker;
    this.#write(shrinker, bytes);
  }

  #write(shrinker: JsonShrinker, bytes: Uint8Array): void {
    if (shrinker.truncated) return;
    shrinker.write(bytes);
    if (shrinker.overflow) this.#overflow();
  }

  #overflow(): void {
    this.#overflowed = true;
    this.release();
  }

  /** Lets go of the kept bytes (once their text has been taken, or once they cannot make a payload). */
  release(): void {
    this.#chunks = [];
    this.#direct = 0;
    this.#shrinker = null;
  }

  /** Bytes kept for the payload. */
  get stored(): number {
    return this.#shrinker ? this.#shrinker.bytes().length : this.#direct;
  }

  /** Every byte kept (read before `release`): a payload of at most DIRECT_MAX_BYTES, or one the filter cut nothing of. */
  get whole(): boolean {
    return this.#shrinker === null || this.#shrinker.whole;
  }

  /** True once the bytes cannot make a payload any more (past 16 MiB, too large or too complex once filtered). */
  get tooLarge(): boolean {
    return this.#overflowed;
  }

  /** The kept bytes as UTF-8 text; null when they are past the bounds. */
  text(): string | null {
    if (this.#overflowed) return null;
    const bytes = this.#shrinker ? this.#shrinker.bytes() : this.#chunks.length === 1 ? (this.#chunks[0] as Uint8Array) : Buffer.concat(this.#chunks, this.#direct);
    return new TextDecoder().decode(bytes);
  }
}
