/**
 * A small POSIX-shell reader, enough to find every simple command in an agent's command line: quoting
 * (`'…'`, `"…"`, `$'…'`, backslashes), chains (`;` `&&` `||` `|` `&`, newlines, subshells), comments,
 * redirections, heredocs (`<<EOF`, `<<-'EOF'`) and here-strings, and command substitutions (`$(…)`, backticks, and
 * those inside `${…}` and `$((…))`), whose inner commands are listed too. `$'…'` is decoded as bash does (`$'\x67it'`
 * is git) and `$"…"` is the string it translates. It never executes anything: a word whose value depends on the
 * environment (`$VAR`, an unresolvable substitution) is marked `dynamic` and keeps that source as its text.
 */
export type Word = { text: string; dynamic: boolean };
export type SimpleCommand = { words: Word[]; stdin: string | null };

type Pending = { delimiter: string; stripTabs: boolean; command: SimpleCommand };

/**
 * `$(…)` nested deeper than this is read as a subshell, whose commands are still listed. A backtick body is always
 * read (it cannot hold another backtick, so it adds one level at most): ignoring it would hide what it runs.
 */
const MAX_DEPTH = 8;
/** Runs of characters with no meaning to the reader, copied in one slice (long messages stay linear and cheap). */
const PLAIN = /[^\s;&|()<>'"$`\\]+/y;
const PLAIN_QUOTED = /[^"\\$`]+/y;
/** `$'…'`'s one-letter escapes. */
const ANSI_NAMED: Readonly<Record<string, string>> = { n: "\n", t: "\t", r: "\r", "'": "'", '"': '"', "\\": "\\", "?": "?", e: "\x1b", E: "\x1b", a: "\x07", b: "\b", f: "\f", v: "\v" };
/** `$'…'`'s numbered escapes: octal `\nnn`, `\xHH`, `\uHHHH`, `\UHHHHHHHH`, and the control character `\cX`. */
const ANSI_NUMBERED = /^(?:[0-7]{1,3}|x[0-9A-Fa-f]{1,2}|u[0-9A-Fa-f]{1,4}|U[0-9A-Fa-f]{1,8}|c[\s\S])/;

function ansiCharacter(escape: string): string {
  if (escape.startsWith("c")) return String.fromCharCode(escape.charCodeAt(1) & 0x1f);
  const code = /^[0-7]/.test(escape) ? parseInt(escape, 8) & 0xff : parseInt(escape.slice(1), 16);
  return code <= 0x10ffff ? String.fromCodePoint(code) : "";
}

class Reader {
  i = 0;
  readonly commands: SimpleCommand[] = [];
  private current: SimpleCommand = { words: [], stdin: null };
  private text = "";
  private dynamic = false;
  private inWord = false;
  private pending: Pending[] = [];
  private skipNextWord = false;
  private hereString = false;
  private parens = 0;

  constructor(
    private readonly src: string,
    private readonly depth: number,
    private readonly untilParen: boolean,
    /** False for the inside of `${…}` and `$((…))`: only its substitutions run, its words are no command. */
    private readonly ownCommands = true,
  ) {}

  private endWord(): void {
    if (!this.inWord) return;
    const word = { text: this.text, dynamic: this.dynamic };
    this.text = "";
    this.dynamic = false;
    this.inWord = false;
    if (this.hereString) {
      this.hereString = false;
      this.current.stdin = word.text;
      return;
    }
    if (this.skipNextWord) {
      this.skipNextWord = false;
      return;
    }
    this.current.words.push(word);
  }

  private endCommand(): void {
    this.endWord();
    if (this.ownCommands && (this.current.words.length > 0 || this.current.stdin !== null)) this.commands.push(this.current);
    this.current = { words: [], stdin: null };
    this.skipNextWord = false;
    this.hereString = false;
  }

  private append(text: string, dynamic = false): void {
    this.inWord = true;
    this.text += text;
    if (dynamic) this.dynamic = true;
  }

  /** Reads heredoc bodies after a newline, in the order their operators appeared. */
  private readHeredocs(): void {
    for (const pending of this.pending.splice(0)) {
      const lines: string[] = [];
      while (this.i < this.src.length) {
        const end = this.src.indexOf("\n", this.i);
        const raw = end < 0 ? this.src.slice(this.i) : this.src.slice(this.i, end);
        this.i = end < 0 ? this.src.length : end + 1;
        const line = pending.stripTabs ? raw.replace(/^\t+/, "") : raw;
        if (line.replace(/\r$/, "") === pending.delimiter) break;
        lines.push(line);
      }
      pending.command.stdin = lines.length > 0 ? `${lines.join("\n")}\n` : "";
    }
  }

  /** `$(…)`: the inner commands are listed; the value is known only for `cat <<EOF`, `echo` and `printf`. */
  /** `$(…)`; an unresolved one keeps its source as its text (`$(which git)` still says what it runs). */
  private substitution(): Word {
    const start = this.i - 2;
    const inner = new Reader(this.src, this.depth + 1, true);
    inner.i = this.i;
    inner.run();
    this.i = inner.i;
    this.commands.push(...inner.commands);
    const word = resolveSubstitution(inner.commands);
    return word.dynamic ? { text: this.src.slice(start, this.i), dynamic: true } : word;
  }

  private backtick(): Word {
    const start = this.i - 1;
    const end = this.src.indexOf("`", this.i);
    const body = end < 0 ? this.src.slice(this.i) : this.src.slice(this.i, end);
    this.i = end < 0 ? this.src.length : end + 1;
    const inner = parseShell(body, this.depth + 1);
    this.commands.push(...inner);
    const word = resolveSubstitution(inner);
    return word.dynamic ? { text: this.src.slice(start, this.i), dynamic: true } : word;
  }

  /**
   * `${…}` and `$((…))` are one word here, but bash runs the substitutions inside them (`${x:-$(git push)}`): their
   * commands are listed. Deeper than MAX_DEPTH they are not followed: the span becomes a command whose program is
   * that dynamic text, which the guard judges like any program it cannot know.
   */
  private innerSubstitutions(from: number, to: number): void {
    const span = this.src.slice(from, to);
    if (!span.includes("$(") && !span.includes("`")) return;
    if (this.depth >= MAX_DEPTH) {
      this.commands.push({ words: [{ text: span, dynamic: true }], stdin: null });
      return;
    }
    const inner = new Reader(span, this.depth + 1, false, false);
    inner.run();
    this.commands.push(...inner.commands);
  }

  /** `$…` outside single quotes. */
  private dollar(): void {
    const next = this.src[this.i + 1];
    if (next === "(" && this.src[this.i + 2] === "(") {
      const end = this.src.indexOf("))", this.i);
      const stop = end < 0 ? this.src.length : end + 2;
      this.innerSubstitutions(this.i + 3, end < 0 ? stop : end);
      this.append(this.src.slice(this.i, stop), true);
      this.i = stop;
      return;
    }
    if (next === "(" && this.depth < MAX_DEPTH) {
      this.i += 2;
      const word = this.substitution();
      this.append(word.text, word.dynamic);
      return;
    }
    if (next === "{") {
      const end = this.src.indexOf("}", this.i);
      const stop = end < 0 ? this.src.length : end + 1;
      this.innerSubstitutions(this.i + 2, end < 0 ? stop : end);
      this.append(this.src.slice(this.i, stop), true);
      this.i = stop;
      return;
    }
    const name = /^[A-Za-z_][A-Za-z0-9_]*|^[0-9@*#?$!-]/.exec(this.src.slice(this.i + 1));
    if (name) {
      this.append(`$${name[0]}`, true);
      this.i += 1 + name[0].length;
      return;
    }
    this.append("$");
    this.i++;
  }

  private doubleQuoted(): void {
    this.inWord = true;
    this.i++;
    while (this.i < this.src.length) {
      const c = this.src[this.i] as string;
      if (c === '"') {
        this.i++;
        return;
      }
      if (c === "\\") {
        const next = this.src[this.i + 1] ?? "";
        if (next === "\n") this.i += 2;
        else if ("$`\"\\".includes(next) && next) {
          this.append(next);
          this.i += 2;
        } else {
          this.append("\\");
          this.i++;
        }
        continue;
      }
      if (c === "$") {
        this.dollar();
        continue;
      }
      if (c === "`") {
        this.i++;
        const word = this.backtick();
        this.append(word.text, word.dynamic);
        continue;
      }
      PLAIN_QUOTED.lastIndex = this.i;
      const run = PLAIN_QUOTED.exec(this.src);
      const text = run ? run[0] : c;
      this.append(text);
      this.i += text.length;
    }
  }

  private ansiQuoted(): void {
    this.inWord = true;
    this.i += 2;
    while (this.i < this.src.length) {
      const c = this.src[this.i] as string;
      if (c === "'") {
        this.i++;
        return;
      }
      if (c === "\\" && this.i + 1 < this.src.length) {
        const next = this.src[this.i + 1] as string;
        const numbered = ANSI_NAMED[next] === undefined ? ANSI_NUMBERED.exec(this.src.slice(this.i + 1, this.i + 10)) : null;
        this.append(ANSI_NAMED[next] ?? (numbered ? ansiCharacter(numbered[0]) : `\\${next}`));
        this.i += 1 + (numbered ? numbered[0].length : 1);
        continue;
      }
      this.append(c);
      this.i++;
    }
  }

  private heredocOperator(): void {
    this.endWord();
    this.i += 2;
    let stripTabs = false;
    if (this.src[this.i] === "-") {
      stripTabs = true;
      this.i++;
    }
    while (this.src[this.i] === " " || this.src[this.i] === "\t") this.i++;
    let delimiter = "";
    while (this.i < this.src.length && !/[\s;&|<>()]/.test(this.src[this.i] as string)) {
      const c = this.src[this.i] as string;
      if (c === "'" || c === '"') {
        const end = this.src.indexOf(c, this.i + 1);
        const stop = end < 0 ? this.src.length : end;
        delimiter += this.src.slice(this.i + 1, stop);
        this.i = stop + 1;
      } else if (c === "\\") {
        delimiter += this.src[this.i + 1] ?? "";
        this.i += 2;
      } else {
        delimiter += c;
        this.i++;
      }
    }
    if (delimiter) this.pending.push({ delimiter, stripTabs, command: this.current });
  }

  private redirection(): void {
    // A file-descriptor number right before the operator (`2>`) is part of it, not a word.
    if (this.inWord && /^\d+$/.test(this.text) && !this.dynamic) {
      this.text = "";
      this.inWord = false;
    } else this.endWord();
    const c = this.src[this.i];
    if (c === "<" && this.src.startsWith("<<<", this.i)) {
      this.i += 3;
      this.hereString = true;
      return;
    }
    if (c === "<" && this.src[this.i + 1] === "<") {
      this.heredocOperator();
      return;
    }
    this.i++;
    while (this.src[this.i] === ">" || this.src[this.i] === "|") this.i++;
    if (this.src[this.i] === "&") {
      // `>&2`, `2>&1`: the target is a descriptor, consumed here.
      this.i++;
      while (/[0-9-]/.test(this.src[this.i] ?? "")) this.i++;
      return;
    }
    this.skipNextWord = true;
  }

  run(): void {
    const src = this.src;
    while (this.i < src.length) {
      const c = src[this.i] as string;
      if (c === "\n") {
        this.endCommand();
        this.i++;
        this.readHeredocs();
        continue;
      }
      if (c === " " || c === "\t" || c === "\r") {
        this.endWord();
        this.i++;
        continue;
      }
      if (c === ";" || c === "&" || c === "|") {
        if (c === "&" && src[this.i + 1] === ">") {
          this.redirection();
          continue;
        }
        this.endCommand();
        this.i++;
        while (src[this.i] === c || (c === "|" && src[this.i] === "&")) this.i++;
        continue;
      }
      if (c === "(") {
        this.endCommand();
        this.parens++;
        this.i++;
        continue;
      }
      if (c === ")") {
        this.endCommand();
        this.i++;
        if (this.parens > 0) {
          this.parens--;
          continue;
        }
        if (this.untilParen) return;
        continue;
      }
      if (c === "#" && !this.inWord) {
        const end = src.indexOf("\n", this.i);
        this.i = end < 0 ? src.length : end;
        continue;
      }
      if (c === "<" || c === ">") {
        this.redirection();
        continue;
      }
      if (c === "'") {
        this.inWord = true;
        const end = src.indexOf("'", this.i + 1);
        const stop = end < 0 ? src.length : end;
        this.append(src.slice(this.i + 1, stop));
        this.i = stop + 1;
        continue;
      }
      if (c === '"') {
        this.doubleQuoted();
        continue;
      }
      if (c === "$" && src[this.i + 1] === "'") {
        this.ansiQuoted();
        continue;
      }
      // `$"…"`: the string translated for the locale, the string itself in every locale a hook runs in.
      if (c === "$" && src[this.i + 1] === '"') {
        this.i++;
        continue;
      }
      if (c === "$") {
        this.dollar();
        continue;
      }
      if (c === "`") {
        this.i++;
        const word = this.backtick();
        this.append(word.text, word.dynamic);
        continue;
      }
      if (c === "\\") {
        const next = src[this.i + 1];
        if (next === "\n") this.i += 2;
        else if (next === "\r" && src[this.i + 2] === "\n") this.i += 3;
        else {
          this.append(next ?? "");
          this.i += 2;
        }
        continue;
      }
      PLAIN.lastIndex = this.i;
      const run = PLAIN.exec(src);
      const text = run ? run[0] : c;
      this.append(text);
      this.i += text.length;
    }
    this.endCommand();
  }
}

function unescapePrintf(text: string): string {
  return text.replace(/\\(n|t|\\)/g, (_, c: string) => (c === "n" ? "\n" : c === "t" ? "\t" : "\\"));
}

/** The output of a substitution when it is static text: `cat <<EOF…`, `cat <<<…`, `echo …`, `printf …`. */
function resolveSubstitution(inner: readonly SimpleCommand[]): Word {
  if (inner.length !== 1) return { text: "", dynamic: true };
  const [command] = inner as [SimpleCommand];
  const [program, ...rest] = command.words;
  if (!program || program.dynamic || rest.some((word) => word.dynamic)) return { text: "", dynamic: true };
  const args = rest.map((word) => word.text);
  if (program.text === "cat" && args.length === 0 && command.stdin !== null) return { text: command.stdin.replace(/\n+$/, ""), dynamic: false };
  if (program.text === "echo") {
    const words = args[0] === "-n" || args[0] === "-e" ? args.slice(1) : args;
    return { text: words.join(" "), dynamic: false };
  }
  if (program.text === "printf" && args.length > 0) return { text: unescapePrintf(args.join(" ")).replace(/\n+$/, ""), dynamic: false };
  return { text: "", dynamic: true };
}

/** Every simple command of a command line (including those inside substitutions), in order. */
export function parseShell(src: string, depth = 0): SimpleCommand[] {
  const reader = new Reader(src, depth, false);
  reader.run();
  return reader.commands;
}
