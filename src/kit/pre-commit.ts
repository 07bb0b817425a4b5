/**
 * pre-commit-guard: judges every git command of a shell command line on its own; the most restrictive
 * judgement wins (deny > ask > allow). `git commit` needs a Conventional Commits message given on the command
 * line (`-m`, `--message`, `-F <file>` / `-F -` with a heredoc), `git push` and `git tag` ask, anything else passes.
 * git is found through the programs that run other programs (`timeout`, `xargs`, `find -exec`, `sudo`, `sh -c`…,
 * `./wrappers.ts`), through nested scripts and through aliases; a git subcommand that cannot be told before the
 * command runs (`git $a`, `"$GIT" push`, `xargs git`) asks.
 */
import { isAbsolute, join } from "node:path";
import { strictest, type Permission } from "./dialect.ts";
import { readRegularFile } from "../core/regular-file.ts";
import { sanitizeItem } from "../text/sanitize.ts";
import { gitConfig } from "./git.ts";
import { parseShell, type SimpleCommand, type Word } from "./shell.ts";
import { invocations, programName } from "./wrappers.ts";

export const DEFAULT_TYPES: readonly string[] = ["feat", "fix", "docs", "chore", "refactor", "test", "perf", "build", "ci", "style", "revert"];

export type Judgement = { permission: Permission; reason: string };

/** Shell tool names of the harnesses (Claude Code, Codex, Copilot in VS Code, OpenCode, Antigravity, Gemini). */
export const SHELL_TOOLS: ReadonlySet<string> = new Set([
  "Bash", "PowerShell", "bash", "shell", "exec_command", "local_shell", "unified_exec", "run_in_terminal", "run_command", "run_shell_command",
]);

/** Subcommands the guard judges; a dynamic program word followed by one of them is taken for git. */
const JUDGED = new Set(["commit", "push", "tag", "send-pack", "subtree", "lfs"]);
const JUDGED_WORD = /(?:^|[^\w-])(?:commit|push|tag|send-pack|subtree|lfs)(?![\w-])/i;

/**
 * Could a text the guard does not follow (a dynamic program word, a script nested too deep) run git? It names git once
 * quotes and backslashes are taken out (`g"i"t`, `g\it`), holds a `$'…'` string (which spells any word: `$'\x67it'`),
 * or holds a variable or substitution next to a subcommand the guard judges (`$G commit`).
 */
function mayNameGit(text: string): boolean {
  const bare = text.replace(/\\\r?\n/g, "").replace(/[\\'"$]/g, "");
  return /git/i.test(bare) || text.includes("$'") || (/[$`]/.test(text) && JUDGED_WORD.test(bare));
}
/** git's own commands (git 2.4x `git help -a`) and common extensions: anything else may be an alias. */
const KNOWN_SUBCOMMANDS = new Set(
  ("add am annotate apply archive bisect blame branch bundle cat-file check-attr check-ignore check-mailmap check-ref-format " +
    "checkout checkout-index cherry cherry-pick citool clean clone column commit commit-graph commit-tree config count-objects " +
    "credential describe diff diff-files diff-index diff-tree difftool fast-export fast-import fetch fetch-pack filter-branch " +
    "for-each-ref for-each-repo format-patch fsck gc get-tar-commit-id grep gui hash-object help init instaweb " +
    "interpret-trailers log ls-files ls-remote ls-tree maintenance merge merge-base merge-file merge-tree mergetool mktag mktree " +
    "multi-pack-index mv name-rev notes pack-objects pack-refs prune pull push range-diff read-tree rebase reflog remote repack " +
    "replace request-pull rerere reset restore rev-list rev-parse revert rm send-email send-pack shortlog show show-branch " +
    "show-ref sparse-checkout stash status stripspace submodule switch symbolic-ref tag unpack-objects update-index update-ref " +
    "var verify-commit verify-pack verify-tag version whatchanged worktree write-tree lfs flow svn p4 subtree annex").split(" "),
);
/** Nested scripts (`bash -c`, `!` aliases, `submodule foreach`) are followed this deep; deeper ones that mention git ask. */
const MAX_NESTING = 4;
/**
 * Alias expansions followed in one command line: an alias that names itself again (`!git a; git a`) would make the
 * judgement grow without end, so past this many the line asks.
 */
const MAX_EXPANSIONS = 64;
/** Bytes of `-F` message files read for one command line: `git commit -F <1 MiB file>` repeated is no stall. */
const MESSAGE_BUDGET_BYTES = 4 * 1024 * 1024;

/** What one judgement of a command line shares across its nested lines and aliases. */
type Judging = {
  cwd: string;
  types: readonly string[];
  /** The repository's aliases of each folder a git call runs in, read once (null: git gave no answer). */
  repositoryAliases: Map<string, ReadonlyMap<string, string> | null>;
  expansions: number;
  messageBytes: number;
};

/**
 * A place in a command line where git may run: a git call (`args` after git's global options), or a command that
 * may run git in a way that cannot be told before it runs.
 */
export type GitReach =
  | { kind: "git"; args: Word[]; dir: string | null; aliases: ReadonlyMap<string, string>; command: SimpleCommand; appended: boolean }
  | { kind: "unresolved"; reason: string };

const TOO_DEEP = "the command nests shells too deep to be checked and mentions git: confirm with the user before it runs.";
const UNRESOLVED_PROGRAM = "the command runs git through a variable or a command substitution, so what it does cannot be checked: confirm with the user before it runs.";

/**
 * `<program> [global options] <subcommand> …` when the program is git — or a variable or substitution that names
 * git (`"$GIT" push`, `$(which git) push`) or is followed by a subcommand the guard judges — else null.
 */
function gitCall(words: readonly Word[], command: SimpleCommand, appended: boolean, lineAliases: ReadonlyMap<string, string>): GitReach | null {
  const program = words[0];
  if (!program) return null;
  if (program.dynamic) {
    const next = words[1];
    if (!mayNameGit(program.text) && !(next && !next.dynamic && JUDGED.has(next.text))) return null;
    if (!next) return { kind: "unresolved", reason: `git: ${UNRESOLVED_PROGRAM}` };
  } else if (programName(program.text) !== "git") return null;
  const aliases = new Map(lineAliases);
  let dir: string | null = null;
  let index = 1;
  while (index < words.length) {
    const word = (words[index] as Word).text;
    if (word === "-C" || word === "-c" || word === "--git-dir" || word === "--work-tree" || word === "--namespace" || word === "--config-env" || word === "--exec-path") {
      const value = words[index + 1]?.text ?? "";
      if (word === "-C") dir = dir && !isAbsolute(value) ? join(dir, value) : value;
      if (word === "-c") {
        const alias = /^alias\.([^=]+)=(.*)$/is.exec(value);
        if (alias) aliases.set((alias[1] as string).toLowerCase(), (alias[2] as string).trim());
      }
      index += 2;
      continue;
    }
    if (word.startsWith("-")) {
      index++;
      continue;
    }
    break;
  }
  return { kind: "git", args: words.slice(index), dir, aliases, command, appended };
}

/** `git config [options] alias.<name> <value>`: the alias the rest of the line may use. */
function definedAlias(args: readonly Word[]): [string, string] | null {
  if (args[0]?.text !== "config") return null;
  const plain: string[] = [];
  for (let index = 1; index < args.length; index++) {
    const text = (args[index] as Word).text;
    if (text === "-f" || text === "--file" || text === "--blob" || text === "--type") index++;
    else if (!text.startsWith("-")) plain.push(text);
  }
  const alias = /^alias\.(.+)$/i.exec(plain[0] ?? "");
  return alias && plain[1] !== undefined ? [(alias[1] as string).toLowerCase(), plain[1]] : null;
}

/** Every place in a command line where git may run, nested scripts (`bash -c`, `eval`, wrappers') included. */
function reachGit(line: string, depth: number, aliases: Map<string, string>, found: GitReach[]): void {
  for (const command of parseShell(line)) {
    for (const invocation of invocations(command)) {
      if (invocation.kind === "script") {
        // A script's variables and substitutions keep their source, so the reader marks them dynamic again.
        if (depth < MAX_NESTING) reachGit(invocation.text, depth + 1, aliases, found);
        else if (mayNameGit(invocation.text)) found.push({ kind: "unresolved", reason: TOO_DEEP });
        continue;
      }
      if (invocation.kind === "unresolved") {
        if (mayNameGit(invocation.text)) found.push({ kind: "unresolved", reason: "the command wraps programs in programs too deep to be checked and mentions git: confirm with the user before it runs." });
        continue;
      }
      const call = gitCall(invocation.words, command, invocation.appended, aliases);
      if (!call) continue;
      found.push(call);
      const alias = call.kind === "git" ? definedAlias(call.args) : null;
      if (alias) aliases.set(alias[0], alias[1]);
    }
  }
}

/**
 * Can this command line run git at all? True for every git call the guard would judge, and for every command that
 * may run git in a way that cannot be told (a variable or substitution naming git, a nested script that does).
 * Pure: it parses the line and runs nothing. The cheap test a caller can make before asking the guard.
 */
export function mayRunGit(line: string): boolean {
  const found: GitReach[] = [];
  reachGit(line, 0, new Map(), found);
  return found.length > 0;
}

const COMMIT_VALUE_SHORT = new Set(["m", "F", "C", "c", "t"]);
const COMMIT_VALUE_LONG = new Set(["--message", "--file", "--reuse-message", "--reedit-message", "--template", "--author", "--date", "--cleanup", "--fixup", "--squash", "--trailer", "--pathspec-from-file"]);

type CommitOptions = {
  messages: Word[];
  file: string | null;
  amend: boolean;
  noEdit: boolean;
  reuse: boolean;
  fixup: boolean;
  dryRun: boolean;
};

function commitOptions(args: readonly Word[]): CommitOptions {
  const options: CommitOptions = { messages: [], file: null, amend: false, noEdit: false, reuse: false, fixup: false, dryRun: false };
  const take = (name: string, value: Word | undefined) => {
    if (!value) return;
    if (name === "m" || name === "--message") options.messages.push(value);
    else if (name === "F" || name === "--file") options.file = value.text;
    else if (name === "C" || name === "--reuse-message") options.reuse = true;
    else if (name === "--fixup" || name === "--squash") options.fixup = true;
  };
  for (let index = 0; index < args.length; index++) {
    const word = args[index] as Word;
    const text = word.text;
    if (text === "--") break;
    if (text.startsWith("--")) {
      const eq = text.indexOf("=");
      const name = eq < 0 ? text : text.slice(0, eq);
      if (name === "--amend") options.amend = true;
      else if (name === "--no-edit") options.noEdit = true;
      else if (name === "--dry-run") options.dryRun = true;
      else if (COMMIT_VALUE_LONG.has(name)) {
        if (eq >= 0) take(name, { text: text.slice(eq + 1), dynamic: word.dynamic });
        else take(name, args[++index]);
      }
      continue;
    }
    if (text.startsWith("-") && text.length > 1) {
      for (let at = 1; at < text.length; at++) {
        const flag = text[at] as string;
        if (!COMMIT_VALUE_SHORT.has(flag)) continue;
        const rest = text.slice(at + 1);
        if (rest) take(flag, { text: rest, dynamic: word.dynamic });
        else take(flag, args[++index]);
        break;
      }
    }
  }
  return options;
}

/** Conventional Commits header: `type(scope)!: subject`. */
export function conventionalHeader(types: readonly string[]): RegExp {
  const names = types.map((type) => type.replace(/[^a-z0-9-]/g, "")).join("|");
  return new RegExp(`^(?:${names})(?:\\([^()\\r\\n]+\\))?!?: \\S`);
}

/** Git drops leading blank lines and `#` comment lines of a message file; the first remaining line is the header. */
function subjectOf(message: string, fromFile: boolean): string {
  const lines = message.split(/\r?\n/).filter((line) => !(fromFile && line.startsWith("#")));
  return (lines.find((line) => line.trim() !== "") ?? "").replace(/^\s+/, "");
}

/**
 * A reason goes back to the model: what it quotes from the command line (a subject, a file name) is sanitised, and
 * one that reads like an instruction to an AI is not quoted at all.
 */
function shown(text: string, fallback: string, max: number): string {
  const clean = sanitizeItem(text.slice(0, 4 * max));
  return clean.kind === "kept" ? clean.text.slice(0, max) : fallback;
}

function quoted(subject: string): string {
  const text = shown(subject, "", 72);
  return text ? `"${text}"` : "the message";
}

function judgeMessage(message: string, fromFile: boolean, types: readonly string[]): Judgement {
  const subject = subjectOf(message, fromFile);
  if (!subject) return { permission: "deny", reason: "git commit: the commit message is empty. Use a Conventional Commits message, e.g. git commit -m \"feat: add login\"." };
  if (conventionalHeader(types).test(subject)) return { permission: "allow", reason: `git commit: ${quoted(subject)} follows Conventional Commits.` };
  return {
    permission: "deny",
    reason: `git commit: ${quoted(subject)} does not follow Conventional Commits. Use <type>(<scope>)!: <subject> with type one of ${types.join(", ")} — e.g. git commit -m "feat: add login".`,
  };
}

/** A message file is read only when it is a regular file of a commit message's size (a FIFO would hang the hook). */
const MAX_MESSAGE_BYTES = 1024 * 1024;

/** The message file's text, within what is left of the line's budget (past it, the file counts as unreadable). */
function readMessageFile(path: string, base: string, state: Judging): string | null {
  const read = readRegularFile(isAbsolute(path) ? path : join(base, path), Math.min(MAX_MESSAGE_BYTES, state.messageBytes));
  if (read.kind !== "ok") return null;
  state.messageBytes -= Buffer.byteLength(read.text);
  return read.text;
}

function judgeCommit(args: readonly Word[], command: SimpleCommand, base: string, state: Judging): Judgement {
  const options = commitOptions(args);
  if (options.dryRun) return { permission: "allow", reason: "git commit --dry-run records nothing." };
  const first = options.messages[0];
  if (first) {
    if (first.dynamic) return { permission: "deny", reason: "git commit: the message depends on a variable or a command, so it cannot be checked. Write it literally, e.g. git commit -m \"fix: handle empty cart\"." };
    return judgeMessage(first.text, false, state.types);
  }
  if (options.file !== null) {
    const text = options.file === "-" ? command.stdin : readMessageFile(options.file, base, state);
    if (text === null) return { permission: "deny", reason: `git commit -F ${shown(options.file, "<file>", 200)}: the message cannot be read before the commit runs. Use -m "<type>: <subject>".` };
    return judgeMessage(text, true, state.types);
  }
  if (options.amend && options.noEdit) return { permission: "allow", reason: "git commit --amend --no-edit keeps the existing message." };
  if (options.reuse) return { permission: "allow", reason: "git commit -C reuses an existing commit message." };
  if (options.fixup) return { permission: "allow", reason: "git commit --fixup/--squash writes an autosquash message." };
  return { permission: "deny", reason: "git commit without -m opens an editor and skips the message check. Use git commit -m \"<type>(<scope>): <subject>\" (Conventional Commits)." };
}

/** The repository's aliases (`alias.<name>`, names lower-cased as git compares them), null when git gave no answer. */
function readAliases(base: string): ReadonlyMap<string, string> | null {
  const config = gitConfig(base, "^alias\\.");
  if (config === null) return null;
  const aliases = new Map<string, string>();
  for (const [key, value] of config) aliases.set(key.slice("alias.".length).toLowerCase(), value.trim());
  return aliases;
}

type Alias = { kind: "none" } | { kind: "alias"; value: string } | { kind: "unknown" };

/**
 * The alias a subcommand names: one the line set (`-c alias.x=…`, `git config alias.x …`), else the repository's
 * (git's own commands are never aliases); unknown when the repository's cannot be read in time.
 */
function aliasOf(sub: string, call: Extract<GitReach, { kind: "git" }>, base: string, state: Judging): Alias {
  const inline = call.aliases.get(sub.toLowerCase());
  if (inline !== undefined) return inline ? { kind: "alias", value: inline } : { kind: "none" };
  if (KNOWN_SUBCOMMANDS.has(sub) || !/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(sub)) return { kind: "none" };
  if (!state.repositoryAliases.has(base)) state.repositoryAliases.set(base, readAliases(base));
  const aliases = state.repositoryAliases.get(base);
  if (!aliases) return { kind: "unknown" };
  const value = aliases.get(sub.toLowerCase());
  return value ? { kind: "alias", value } : { kind: "none" };
}

const UNRESOLVED_SUBCOMMAND = "the git subcommand depends on a variable or a command substitution, so it cannot be checked: confirm with the user before it runs.";
const APPENDED_SUBCOMMAND = "the git subcommand is only filled in when the command runs (xargs, find -exec, parallel): confirm with the user before it runs.";
const UNKNOWN_ALIAS = "it may be one of the repository's aliases (which may push), and git did not answer in time to tell: confirm with the user before it runs.";
const TOO_MANY_ALIASES = "git: the command expands git aliases too many times to be checked: confirm with the user before it runs.";

function judgeGit(call: Extract<GitReach, { kind: "git" }>, state: Judging, depth: number): Judgement[] {
  let args = call.args;
  const first = args[0];
  if (!first) return call.appended ? [{ permission: "ask", reason: `git: ${APPENDED_SUBCOMMAND}` }] : [];
  if (first.dynamic) return [{ permission: "ask", reason: `git ${shown(first.text, "<subcommand>", 40)}: ${UNRESOLVED_SUBCOMMAND}` }];
  const base = call.dir ? (isAbsolute(call.dir) ? call.dir : join(state.cwd, call.dir)) : state.cwd;
  const alias = aliasOf(first.text, call, base, state);
  if (alias.kind === "unknown") return [{ permission: "ask", reason: `git ${shown(first.text, "<subcommand>", 40)}: ${UNKNOWN_ALIAS}` }];
  if (alias.kind === "alias") {
    if (--state.expansions < 0) return [{ permission: "ask", reason: TOO_MANY_ALIASES }];
    // `!…` aliases are shell commands, whose git calls still see the line's `-c alias.…` (git passes them on in its
    // environment); the others expand in place (git splits them on whitespace, and follows a chain of them).
    if (alias.value.startsWith("!")) return judgeLine(alias.value.slice(1), state, depth + 1, call.aliases);
    const expanded = alias.value.split(/\s+/).filter(Boolean).map((text) => ({ text, dynamic: false }));
    return judgeGit({ ...call, args: [...expanded, ...args.slice(1)] }, state, depth);
  }
  const sub = first.text;
  args = args.slice(1);
  const words = args.map((word) => word.text);
  if (sub === "commit") return [judgeCommit(args, call.command, base, state)];
  if (sub === "push" || sub === "send-pack") return [{ permission: "ask", reason: "git push publishes commits: confirm with the user before pushing." }];
  if ((sub === "subtree" || sub === "lfs") && words.includes("push")) return [{ permission: "ask", reason: `git ${sub} push publishes commits: confirm with the user before pushing.` }];
  if (sub === "tag") return [{ permission: "ask", reason: "git tag creates or changes release tags: confirm with the user first." }];
  // Commands git runs for the user: judged like the rest of the line.
  const nested = sub === "submodule" && words[0] === "foreach" ? words.slice(1).filter((w) => !w.startsWith("-")).join(" ")
    : sub === "rebase" ? (words.find((_, i) => words[i - 1] === "-x" || words[i - 1] === "--exec") ?? words.find((w) => w.startsWith("--exec="))?.slice(7) ?? null)
    : sub === "bisect" && words[0] === "run" ? words.slice(1).join(" ")
    : null;
  if (nested === null) return [];
  if (depth < MAX_NESTING) return judgeLine(nested, state, depth + 1, new Map());
  return mayNameGit(nested) ? [{ permission: "ask", reason: TOO_DEEP }] : [];
}

/** Every git judgement of a command line, nested shells, wrappers and aliases included. */
function judgeLine(line: string, state: Judging, depth: number, aliases: ReadonlyMap<string, string>): Judgement[] {
  const found: GitReach[] = [];
  reachGit(line, depth, new Map(aliases), found);
  return found.flatMap((reach) => (reach.kind === "unresolved" ? [{ permission: "ask" as const, reason: reach.reason }] : judgeGit(reach, state, depth)));
}

/** The decision for a command line: null when it holds no commit, push or tag (silent pass). */
export function judgePreCommit(line: string, cwd: string, types: readonly string[] = DEFAULT_TYPES): Judgement | null {
  const state: Judging = { cwd, types, repositoryAliases: new Map(), expansions: MAX_EXPANSIONS, messageBytes: MESSAGE_BUDGET_BYTES };
  const judgements = judgeLine(line, state, 0, new Map());
  const worst = strictest(judgements);
  if (!worst) return null;
  const reasons = [...new Set(judgements.filter((j) => j.permission === worst.permission).map((j) => j.reason))];
  return { permission: worst.permission, reason: reasons.join(" ") };
}
