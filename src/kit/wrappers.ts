/**
 * What one simple command really runs once the programs that run another program are peeled off: `sudo -u x git
 * push`, `timeout 5 git push`, `env -i A=1 git push`, `xargs -n1 git push`, `find . -exec git push \;`, `nice -n 5
 * git push`, `flock /tmp/l -c 'git push'`, `bash -c '…'`, `eval '…'`, `cmd /c …`, `pwsh -Command …`. Pure: it
 * reads words the shell reader produced and never runs anything.
 */
import type { SimpleCommand, Word } from "./shell.ts";

export type Invocation =
  /** `words[0]` is the program; `appended`: more arguments arrive at run time (xargs, `find -exec … +`, parallel). */
  | { kind: "command"; words: Word[]; appended: boolean }
  /** A script a shell or `eval` is told to run; `dynamic` when its text depends on the environment. */
  | { kind: "script"; text: string; dynamic: boolean }
  /** Programs wrapped in programs deeper than MAX_WRAPPERS: what runs is not followed (`text`: the words left). */
  | { kind: "unresolved"; text: string };

type OptionSet = { short?: string; long?: readonly string[] };

type WrapperSpec = OptionSet & {
  /** Positional words before the command (timeout's duration, taskset's mask, flock's file, chroot's root). */
  positionals?: number;
  /** Positionals only count when numeric (chrt's priority). */
  numericPositionals?: boolean;
  /** Options whose value is a script to run (`su -c`, `flock -c`, `script -c`, `env -S`). */
  script?: OptionSet;
  /** Options after which no command runs (`command -v`, `chrt -p`, `taskset -p`, `ionice -p`). */
  noRun?: OptionSet;
  /** Without a script option nothing is run (`su user`, `script file`). */
  scriptOnly?: boolean;
  /** The script option may follow the user (`su bob -c '…'`, `runuser -l bob -c '…'`). */
  scriptAnywhere?: boolean;
  appends?: boolean;
};

/** Programs that run the rest of their words as a command. `short`/`long` list the options that take a value. */
const WRAPPERS: Readonly<Record<string, WrapperSpec>> = {
  sudo: { short: "ughpCDrtTUR", long: ["--user", "--group", "--host", "--prompt", "--close-from", "--chdir", "--role", "--type", "--command-timeout", "--other-user", "--chroot"] },
  doas: { short: "uC" },
  run0: { short: "uDg", long: ["--user", "--group", "--chdir", "--unit", "--property", "--description", "--slice", "--nice", "--setenv", "--machine"] },
  runuser: { short: "ugGsw", long: ["--user", "--group", "--supp-group", "--shell", "--whitelist-environment"], script: { short: "c", long: ["--command"] }, scriptAnywhere: true },
  su: { short: "ugGsw", long: ["--group", "--supp-group", "--shell", "--whitelist-environment"], script: { short: "c", long: ["--command"] }, scriptOnly: true, scriptAnywhere: true },
  command: { noRun: { short: "vV" } },
  builtin: {},
  exec: { short: "a" },
  nohup: {},
  setsid: {},
  time: { short: "fo", long: ["--format", "--output"] },
  nice: { short: "n", long: ["--adjustment"] },
  env: { short: "uC", long: ["--unset", "--chdir"], script: { short: "S", long: ["--split-string"] } },
  timeout: { short: "sk", long: ["--signal", "--kill-after"], positionals: 1 },
  stdbuf: { short: "ioe", long: ["--input", "--output", "--error"] },
  ionice: { short: "cn", long: ["--class", "--classdata"], noRun: { short: "pPu", long: ["--pid", "--pgid", "--uid"] } },
  chrt: { short: "TPD", long: ["--sched-runtime", "--sched-period", "--sched-deadline"], positionals: 1, numericPositionals: true, noRun: { short: "p", long: ["--pid"] } },
  taskset: { positionals: 1, noRun: { short: "p", long: ["--pid"] } },
  flock: { short: "wE", long: ["--timeout", "--conflict-exit-code"], positionals: 1, script: { short: "c", long: ["--command"] } },
  unbuffer: {},
  watch: { short: "nq", long: ["--interval", "--equexit"] },
  script: { short: "EIOBT", long: ["--echo", "--log-in", "--log-out", "--log-io", "--log-timing"], script: { short: "c", long: ["--command"] }, scriptOnly: true },
  strace: { short: "eoOpsuEbIPXa" },
  ltrace: { short: "eoOpsuEnaAlLD" },
  caffeinate: { short: "tw" },
  chroot: { long: ["--userspec", "--groups"], positionals: 1 },
  proxychains: { short: "f" },
  proxychains4: { short: "f" },
  torsocks: { short: "uPpa" },
  tsocks: {},
  firejail: {},
  nsenter: { short: "tSG" },
  unshare: {},
  "systemd-run": { short: "pEuMH", long: ["--unit", "--property", "--setenv", "--host", "--machine", "--description", "--slice", "--uid", "--gid", "--nice", "--working-directory"] },
  "xvfb-run": { short: "nsfepw" },
  busybox: {},
  xargs: { short: "aEeIiLlnPsd", long: ["--arg-file", "--eof", "--replace", "--max-lines", "--max-args", "--max-procs", "--max-chars", "--delimiter", "--process-slot-var"], appends: true },
};

/**
 * Programs peeled off one simple command (wrappers, `find -exec`, `parallel`, `Start-Process`): past this many the
 * rest is unresolved, so that `sudo sudo … git push` or `find -exec find -exec …` costs no more than this many passes
 * over its words, whatever their number.
 */
const MAX_WRAPPERS = 16;

/** Shells and interpreters of a command string. */
const SHELLS = /^(?:(?:ba|z|da|k|a|fi)?sh|busybox|pwsh|powershell|cmd)$/;
/** Words that only open a compound command; what follows is the command. */
const KEYWORDS = new Set(["!", "{", "then", "do", "else", "elif", "if", "while", "until"]);

export function programName(word: string): string {
  return word.replace(/^.*[\\/]/, "").replace(/\.(?:exe|cmd|bat|com)$/i, "").toLowerCase();
}

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

function inSet(set: OptionSet | undefined, option: string, short: boolean): boolean {
  if (!set) return false;
  return short ? (set.short ?? "").includes(option) : (set.long ?? []).includes(option);
}

type Peeled = { next: number } | { script: Word } | { noRun: true };

/** The options and positionals of one wrapper, from `start`; where its command begins. */
function peelOptions(spec: WrapperSpec, words: readonly Word[], start: number): Peeled {
  let index = start;
  let positionals = spec.positionals ?? 0;
  while (index < words.length) {
    const word = words[index] as Word;
    const text = word.text;
    if (text === "--") return { next: index + 1 };
    if (text.startsWith("--") && text.length > 2) {
      const eq = text.indexOf("=");
      const name = eq < 0 ? text : text.slice(0, eq);
      if (inSet(spec.noRun, name, false)) return { noRun: true };
      const inline = eq < 0 ? null : { text: text.slice(eq + 1), dynamic: word.dynamic };
      if (inSet(spec.script, name, false)) return { script: inline ?? words[index + 1] ?? { text: "", dynamic: false } };
      index += inSet(spec, name, false) && inline === null ? 2 : 1;
      continue;
    }
    if (text.startsWith("-") && text.length > 1) {
      let consumed = 1;
      for (let at = 1; at < text.length; at++) {
        const flag = text[at] as string;
        if (inSet(spec.noRun, flag, true)) return { noRun: true };
        const rest = text.slice(at + 1);
        const value = rest ? { text: rest, dynamic: word.dynamic } : words[index + 1];
        if (inSet(spec.script, flag, true)) return { script: value ?? { text: "", dynamic: false } };
        if (inSet(spec, flag, true)) {
          if (!rest) consumed = 2;
          break;
        }
      }
      index += consumed;
      continue;
    }
    if (positionals > 0 && (!spec.numericPositionals || /^\d+$/.test(text))) {
      positionals -= 1;
      index += 1;
      continue;
    }
    break;
  }
  return { next: index };
}

/** `-c` / `-lc` / `-Command` / `/c`: the script a shell is told to run, or null when it runs a file or stdin. */
function shellScript(program: string, words: readonly Word[]): Word | null {
  for (let index = 1; index < words.length; index++) {
    const text = (words[index] as Word).text;
    const isFlag = program === "cmd" ? /^\/[ck]$/i.test(text) : /^-[A-Za-z]*c[A-Za-z]*$/.test(text) || /^-(?:command|c)$/i.test(text);
    if (isFlag) {
      const rest = words.slice(index + 1);
      // cmd.exe and PowerShell take the rest of the line as the command; POSIX shells take one word.
      if (program === "cmd" || program === "pwsh" || program === "powershell") return { text: rest.map((w) => w.text).join(" "), dynamic: rest.some((w) => w.dynamic) };
      return words[index + 1] ?? null;
    }
    if (!text.startsWith("-") && !(program === "cmd" && text.startsWith("/"))) return null;
  }
  return null;
}

function script(word: Word): Invocation {
  return { kind: "script", text: word.text, dynamic: word.dynamic };
}

/** `find … -exec cmd … ;` / `-execdir` / `-ok` / `-okdir`: each command, `{}` standing for a found path. */
function findCommands(words: readonly Word[], depth: number): Invocation[] {
  const found: Invocation[] = [];
  for (let index = 1; index < words.length; index++) {
    if (!/^-(?:exec|execdir|ok|okdir)$/.test((words[index] as Word).text)) continue;
    const command: Word[] = [];
    let end = index + 1;
    while (end < words.length && (words[end] as Word).text !== ";" && (words[end] as Word).text !== "+") {
      const word = words[end] as Word;
      command.push(word.text.includes("{}") ? { text: word.text, dynamic: true } : word);
      end++;
    }
    if (command.length > 0) found.push(...resolve(command, (words[end] as Word | undefined)?.text === "+", depth));
    index = end;
  }
  return found;
}

/** xargs' replace string (`-I {}`, `-i`, `--replace`): the words holding it are filled in at run time. */
function xargsReplace(words: readonly Word[], end: number): string | null {
  let replace: string | null = null;
  for (let index = 1; index < end; index++) {
    const text = (words[index] as Word).text;
    if (text === "-I") replace = (words[index + 1] as Word | undefined)?.text ?? null;
    else if (text.startsWith("-I")) replace = text.slice(2);
    else if (text === "-i" || text === "--replace") replace = "{}";
    else if (text.startsWith("-i") || text.startsWith("--replace=")) replace = text.slice(text.indexOf("=") + 1 || 2);
  }
  return replace;
}

/** GNU parallel: the command before `:::` gets each argument; without one, each argument is a command line. */
function parallelCommands(words: readonly Word[], depth: number): Invocation[] {
  const separator = words.findIndex((word) => /^:::+\+?$/.test(word.text));
  const head = words.slice(1, separator < 0 ? words.length : separator).filter((word, index) => index > 0 || !word.text.startsWith("-"));
  const start = head.findIndex((word) => !word.text.startsWith("-"));
  if (start >= 0) return resolve(head.slice(start), true, depth);
  return separator < 0 ? [] : words.slice(separator + 1).map(script);
}

/** PowerShell `Start-Process git -ArgumentList push`: the program and its arguments. */
function startProcess(words: readonly Word[], depth: number): Invocation[] {
  const program: Word[] = [];
  const args: Word[] = [];
  for (let index = 1; index < words.length; index++) {
    const word = words[index] as Word;
    const option = word.text.toLowerCase();
    if (option === "-filepath") program.push(...words.slice(index + 1, index + 2));
    else if (option === "-argumentlist" || option === "-args") {
      const value = words[index + 1];
      if (value) args.push(...value.text.split(/[\s,]+/).filter(Boolean).map((text) => ({ text: text.replace(/^['"]|['"]$/g, ""), dynamic: value.dynamic })));
    } else if (!option.startsWith("-") && program.length === 0) {
      program.push(word);
      continue;
    } else continue;
    index++;
  }
  return program.length > 0 ? resolve([...program, ...args], false, depth) : [];
}

/** `su bob -c '…'`: the script option wherever it stands. */
function scriptAnywhere(spec: WrapperSpec, words: readonly Word[]): Word | null {
  for (let index = 1; index < words.length; index++) {
    const text = (words[index] as Word).text;
    const eq = text.indexOf("=");
    if (text.startsWith("--") && inSet(spec.script, eq < 0 ? text : text.slice(0, eq), false)) {
      return eq < 0 ? (words[index + 1] ?? null) : { text: text.slice(eq + 1), dynamic: (words[index] as Word).dynamic };
    }
    if (/^-[A-Za-z]+$/.test(text) && [...text.slice(1)].some((flag) => inSet(spec.script, flag, true))) return words[index + 1] ?? null;
  }
  return null;
}

/**
 * Every command `words` runs (none for a `command -v`), wrappers peeled, in order. `stdin` is the heredoc or
 * here-string of the simple command: a shell given no script reads it. `depth`: programs peeled so far.
 */
function resolve(words: readonly Word[], appended: boolean, depth = 0, stdin: string | null = null): Invocation[] {
  let index = 0;
  let adds = appended;
  let peeled = depth;
  while (index < words.length) {
    const word = words[index] as Word;
    if (ASSIGNMENT.test(word.text) || KEYWORDS.has(word.text)) {
      index++;
      continue;
    }
    if (word.dynamic) break;
    const program = programName(word.text);
    if (program === "eval" || program === "iex" || program === "invoke-expression") {
      const args = words.slice(index + 1);
      return [{ kind: "script", text: args.map((w) => w.text).join(" "), dynamic: args.some((w) => w.dynamic) }];
    }
    if (program === "alias") return words.slice(index + 1).filter((w) => w.text.includes("=")).map((w) => ({ kind: "script", text: w.text.slice(w.text.indexOf("=") + 1), dynamic: w.dynamic }));
    if (program === "trap") return words[index + 1] ? [script(words[index + 1] as Word)] : [];
    const spec = WRAPPERS[program];
    const wraps = spec !== undefined || program === "find" || program === "parallel" || program === "start-process" || program === "saps";
    if (wraps && ++peeled > MAX_WRAPPERS) return [{ kind: "unresolved", text: words.slice(index).map((w) => w.text).join(" ") }];
    const rest = words.slice(index);
    if (program === "find") return findCommands(rest, peeled);
    if (program === "parallel") return parallelCommands(rest, peeled);
    if (program === "start-process" || program === "saps") return startProcess(rest, peeled);
    if (SHELLS.test(program) && program !== "busybox") {
      const body = shellScript(program, rest);
      if (body) return [script(body)];
      const readsStdin = rest.slice(1).every((w) => w.text.startsWith("-"));
      return readsStdin && stdin !== null ? [{ kind: "script", text: stdin, dynamic: false }] : [];
    }
    if (!spec) break;
    const anywhere = spec.scriptAnywhere ? scriptAnywhere(spec, rest) : null;
    if (anywhere) return [script(anywhere)];
    const options = peelOptions(spec, rest, 1);
    if ("noRun" in options) return [];
    if ("script" in options) return [script(options.script)];
    if (spec.scriptOnly) return [];
    if (program === "xargs") {
      const replace = xargsReplace(rest, options.next);
      const command = rest.slice(options.next).map((w) => (replace && w.text.includes(replace) ? { text: w.text, dynamic: true } : w));
      return command.length > 0 ? resolve(command, true, peeled, stdin) : [];
    }
    if (spec.appends) adds = true;
    index += options.next;
  }
  const command = words.slice(index);
  return command.length > 0 ? [{ kind: "command", words: command, appended: adds }] : [];
}

/** What one simple command runs; a shell reading a heredoc runs the heredoc. */
export function invocations(command: SimpleCommand): Invocation[] {
  return resolve(command.words, false, 0, command.stdin);
}
