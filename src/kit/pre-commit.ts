/**
 * pre-commit-guard: judges every git command of a shell command line on its own; the most restrictive
 * judgement wins (deny > ask > allow). `git commit` needs a Conventional Commits message given on the command
 * line (`-m`, `--message`, `-F <file>` / `-F -` with a heredoc), `git push` and `git tag` ask, anything else passes.
 */
import { readFileSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { strictest, type Permission } from "./dialect.ts";
import { sanitizeItem } from "../text/sanitize.ts";
import { parseShell, type SimpleCommand, type Word } from "./shell.ts";

export const DEFAULT_TYPES: readonly string[] = ["feat", "fix", "docs", "chore", "refactor", "test", "perf", "build", "ci", "style", "revert"];

export type Judgement = { permission: Permission; reason: string };

/** Shell tool names of the harnesses (Claude Code, Codex, Copilot in VS Code, OpenCode, Antigravity, Gemini). */
export const SHELL_TOOLS: ReadonlySet<string> = new Set([
  "Bash", "PowerShell", "bash", "shell", "exec_command", "local_shell", "unified_exec", "run_in_terminal", "run_command", "run_shell_command",
]);

const WRAPPERS = new Set(["sudo", "command", "builtin", "exec", "nohup", "time", "nice", "env", "doas", "!", "{", "then", "do", "else", "if", "while", "until"]);
const SHELLS = /^(?:.*[\\/])?(?:ba|z|da|k)?sh(?:\.exe)?$/;

function basename(program: string): string {
  return program.replace(/^.*[\\/]/, "").replace(/\.exe$/i, "").toLowerCase();
}

/** The words after wrappers and `NAME=value` prefixes (`sudo -u x git …`, `env -i A=1 git …`, `time git …`). */
function stripPrefix(words: readonly Word[]): Word[] {
  let index = 0;
  while (index < words.length) {
    const word = (words[index] as Word).text;
    if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(word)) {
      index++;
      continue;
    }
    if (WRAPPERS.has(word)) {
      index++;
      // Options of the wrapper itself (`sudo -u root`, `nice -n 5`, `env -i`).
      while (index < words.length && (words[index] as Word).text.startsWith("-")) {
        const option = (words[index] as Word).text;
        index++;
        if (/^-[unCgp]$/.test(option) && index < words.length) index++;
      }
      continue;
    }
    break;
  }
  return words.slice(index);
}

type GitCall = { args: Word[]; dir: string | null; aliases: Map<string, string> };

/** `git [global options] <subcommand> …`, or null when the command is not git. */
function gitCall(command: SimpleCommand): GitCall | null {
  const words = stripPrefix(command.words);
  const program = words[0];
  if (!program || basename(program.text) !== "git") return null;
  const aliases = new Map<string, string>();
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
  return { args: words.slice(index), dir, aliases };
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

function readMessageFile(path: string, base: string): string | null {
  try {
    return readFileSync(isAbsolute(path) ? path : join(base, path), "utf8");
  } catch {
    return null;
  }
}

function judgeCommit(args: readonly Word[], command: SimpleCommand, base: string, types: readonly string[]): Judgement {
  const options = commitOptions(args);
  if (options.dryRun) return { permission: "allow", reason: "git commit --dry-run records nothing." };
  const first = options.messages[0];
  if (first) {
    if (first.dynamic) return { permission: "deny", reason: "git commit: the message depends on a variable or a command, so it cannot be checked. Write it literally, e.g. git commit -m \"fix: handle empty cart\"." };
    return judgeMessage(first.text, false, types);
  }
  if (options.file !== null) {
    const text = options.file === "-" ? command.stdin : readMessageFile(options.file, base);
    if (text === null) return { permission: "deny", reason: `git commit -F ${shown(options.file, "<file>", 200)}: the message cannot be read before the commit runs. Use -m "<type>: <subject>".` };
    return judgeMessage(text, true, types);
  }
  if (options.amend && options.noEdit) return { permission: "allow", reason: "git commit --amend --no-edit keeps the existing message." };
  if (options.reuse) return { permission: "allow", reason: "git commit -C reuses an existing commit message." };
  if (options.fixup) return { permission: "allow", reason: "git commit --fixup/--squash writes an autosquash message." };
  return { permission: "deny", reason: "git commit without -m opens an editor and skips the message check. Use git commit -m \"<type>(<scope>): <subject>\" (Conventional Commits)." };
}

function judgeGit(call: GitCall, command: SimpleCommand, cwd: string, types: readonly string[]): Judgement | null {
  let args = call.args;
  const first = args[0];
  if (!first) return null;
  const alias = call.aliases.get(first.text.toLowerCase());
  if (alias && !alias.startsWith("!")) args = [...alias.split(/\s+/).map((text) => ({ text, dynamic: false })), ...args.slice(1)];
  const sub = (args[0] as Word).text;
  const base = call.dir ? (isAbsolute(call.dir) ? call.dir : join(cwd, call.dir)) : cwd;
  if (sub === "commit") return judgeCommit(args.slice(1), command, base, types);
  if (sub === "push") return { permission: "ask", reason: "git push publishes commits: confirm with the user before pushing." };
  if (sub === "tag") return { permission: "ask", reason: "git tag creates or changes release tags: confirm with the user first." };
  return null;
}

/** Commands a shell is told to run (`bash -c '…'`, `sh -lc "…"`, `eval '…'`) are judged like the rest. */
function nestedScript(command: SimpleCommand): string | null {
  const words = stripPrefix(command.words);
  const program = words[0];
  if (!program) return null;
  if (program.text === "eval") return words.slice(1).map((word) => word.text).join(" ");
  if (!SHELLS.test(program.text)) return null;
  const flag = words.findIndex((word, index) => index > 0 && /^-[a-z]*c[a-z]*$/.test(word.text));
  return flag > 0 ? (words[flag + 1]?.text ?? null) : null;
}

/** Every git judgement of a command line, nested shells included. */
export function judgeCommandLine(line: string, cwd: string, types: readonly string[] = DEFAULT_TYPES, depth = 0): Judgement[] {
  const judgements: Judgement[] = [];
  for (const command of parseShell(line)) {
    const script = depth < 4 ? nestedScript(command) : null;
    if (script) {
      judgements.push(...judgeCommandLine(script, cwd, types, depth + 1));
      continue;
    }
    const call = gitCall(command);
    if (!call) continue;
    const judgement = judgeGit(call, command, cwd, types);
    if (judgement) judgements.push(judgement);
  }
  return judgements;
}

/** The decision for a command line: null when it holds no commit, push or tag (silent pass). */
export function judgePreCommit(line: string, cwd: string, types: readonly string[] = DEFAULT_TYPES): Judgement | null {
  const judgements = judgeCommandLine(line, cwd, types);
  const worst = strictest(judgements);
  if (!worst) return null;
  const reasons = [...new Set(judgements.filter((j) => j.permission === worst.permission).map((j) => j.reason))];
  return { permission: worst.permission, reason: reasons.join(" ") };
}
