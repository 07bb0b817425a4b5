/**
 * Secret redaction (spec 5.8 step 4 and issues 11 and 25), applied to every text before it is stored (the store's
 * one door, src/store/records.ts, and the live files' writers), before anything goes back into a model (the
 * sanitiser), before anything is exported (OpenTelemetry) and before anything is sent to the judge.
 *
 * The rules are one list, `SECRET_RULES`, applied in its order, one rule per family of forms; to cover a new form,
 * extend its family (a token prefix, a row of `programOptions()`, a key of the credential-file lines) or add one entry
 * with the keywords its text must contain. Order matters: token shapes, header values (`Authorization`, `Cookie`),
 * `Bearer` / `Basic` and PEM blocks go first so that a later key/value rule never leaves half a token behind;
 * command-line forms next; assignments, credential files' lines and key/value pairs last.
 *
 * Why a hand-kept list: the maintained rule sets were weighed against the hook path's budget (this runs on every
 * string of every `hooks:emit`). secretlint's recommended preset is a 218 KB bundle of rule modules driven by
 * @secretlint/core's asynchronous file API, and gitleaks' rules are ~200 Go RE2 patterns as TOML: either costs
 * milliseconds to load and compile per call, and neither knows command-line forms (`docker login -p`,
 * `redis-cli -a`, `keytool -storepass`, `IDENTIFIED BY '…'`, `*_PASS=`), which are most of what an agent's commands
 * leak. The token shapes below follow secretlint's and gitleaks' rules (MIT) where they overlap; every rule is gated
 * by gitleaks-style keywords so text without them costs one pass of `includes`.
 */
export const REDACTED = "[REDACTED]";

type Replacer = (match: string, ...groups: string[]) => string;

export type SecretRule = {
  /** What the rule covers, for the reader. */
  name: string;
  /** Lower-case literals, one of which the text must contain for the rule to run (case-insensitive). */
  keywords: readonly string[];
  /**
   * Made on first use: creating a RegExp parses it, and a hook process that parsed every rule at start would pay
   * for ~35 patterns while a text usually needs none or two of them.
   */
  pattern: () => RegExp;
  replace: string | Replacer;
};

/** A quoted value or a run of non-space characters. */
const VALUE = String.raw`(?:"[^"]*"|'[^']*'|[^\s"']+)`;
/** The value after a command-line option: not the next option, not an already redacted value. */
const OPTION_VALUE = String.raw`(?!-)(?!\[REDACTED\])${VALUE}`;
/** Words that make a key/value pair, an option or a config key secret. */
const SECRET_WORDS = String.raw`password|passwd|passphrase|pwd|secret|token|api[_-]?key|access[_-]?key|private[_-]?key|client[_-]?secret|account[_-]?key|shared[_-]?access[_-]?key|encryption[_-]?key`;
const SECRET_KEY = String.raw`[A-Za-z0-9_.-]*(?:${SECRET_WORDS})[A-Za-z0-9_.-]*`;

/** A rule that replaces a whole token shape; `prefixes` are its literal starts, lower-cased (its keywords). */
function token(name: string, prefixes: readonly string[], pattern: () => RegExp): SecretRule {
  return { name, keywords: prefixes, pattern, replace: REDACTED };
}

/** Keeps the option (and its separator), replaces the value. */
const keepHead: Replacer = (_match, head) => `${head}${REDACTED}`;

/** `[REDACTED]` in the value's own quotes, so a quoted value (SQL, JSON, YAML) still reads as one. */
function redactedLike(value: string): string {
  const quote = value[0];
  return quote === '"' || quote === "'" ? `${quote}${REDACTED}${quote}` : REDACTED;
}

/**
 * How a program's option takes its value: `attached` only (`mysql -pX`, where `-p X` prompts and X is the database;
 * 7-Zip's `-pX`), `separate` only (`-storepass X`, `--pass=X`), or `either` (getopt: `-w X` or `-wX`; attached only
 * for a one-letter option, so `--pass` never takes `word` from `--password`).
 */
type ValueForm = "attached" | "separate" | "either";

type OptionSpec = {
  /** The options, as a regex alternation (`-a|--pass`); matched case-sensitively, after a space. */
  options: string;
  form: ValueForm;
  /** A word (regex source) the options come after: `docker login -p`, not `docker run -p`. */
  after?: string;
  /** The value is `user<separator>secret` (`curl -u alice:X`, `smbclient -U alice%X`): the user is kept. */
  user?: ":" | "%";
  /** A value is a secret only when it holds this (`curl -b name=X` is a cookie, `curl -b jar.txt` a file). */
  holds?: string;
};

/** A form without options: its own pattern over the rest of the command (positional passwords). */
type PatternSpec = { pattern: () => RegExp; replace: Replacer };

type ProgramOptions = {
  /** Command words, lower-case: matched case-insensitively, bare or by path, with or without `.exe`. */
  programs: readonly string[];
  /**
   * Lower-case literals a text holds whenever the row can apply: a stem of each command word, or the word its options
   * come after (`login`, `secret`). Rows whose keywords a command lacks are not looked at.
   */
  keywords: readonly string[];
  specs: ReadonlyArray<OptionSpec | PatternSpec>;
};

/** The value of an option: quoted, or up to the next space. */
const ARGUMENT = String.raw`"[^"]*"|'[^']*'|\S+`;

/**
 * Programs whose options (or arguments) take a secret, one row per program family: the family "a command-line
 * option that takes a password". A row applies from its command word to the end of that command. Made on first use:
 * the table costs a hook ~0.06 ms to evaluate, and most texts never reach it.
 */
export function programOptions(): readonly ProgramOptions[] {
  /** `htpasswd -b[flags] file user PASSWORD` and `htpasswd -nb user PASSWORD`: the password is positional. */
  const htpasswd: PatternSpec = {
    pattern: () => new RegExp(String.raw`^((?:\s+-(?:[Cr]\s*\d+|[A-Za-z]+))+)(\s+(?:${ARGUMENT}))(\s+(?:${ARGUMENT}))(\s+(?:${ARGUMENT}))?`),
    replace: (match, flags, first, second, third) => {
      const letters = flags.replace(/-[Cr]\s*\d+/g, "");
      if (!letters.includes("b")) return match;
      const secret = (part: string) => `${part.slice(0, part.length - part.trimStart().length)}${REDACTED}`;
      if (letters.includes("n")) return `${flags}${first}${secret(second)}${third ?? ""}`;
      return third === undefined ? match : `${flags}${first}${second}${secret(third)}`;
    },
  };

  /** Oracle's logon `user/password[@db]` (`sqlplus scott/tiger@orcl`, `expdp system/x@db …`). */
  const oracleLogon: PatternSpec = {
    pattern: () => /(\s["']?[A-Za-z][\w$#.]*\/)(?!\[REDACTED\])("[^"]*"|[^\s@/"']+)/g,
    replace: keepHead,
  };

  /** Redis's `AUTH [user] password`, typed after `redis-cli`. */
  const redisAuth: PatternSpec = {
    pattern: () => /(\sauth\s+(?:(?!-)[^\s"']+\s+(?=[^\s-]))?)(?!\[REDACTED\])("[^"]*"|'[^']*'|\S+)/gi,
    replace: keepHead,
  };

  return [
    {
      programs: ["mysql", "mariadb", "mysqldump", "mysqladmin", "mysqlimport", "mysqlcheck", "mysqlshow", "mysqlpump", "mysqlslap", "mariadb-dump", "mariadb-admin"],
      keywords: ["mysql", "mariadb"],
      specs: [{ options: "-p", form: "attached" }],
    },
    { programs: ["sshpass"], keywords: ["sshpass"], specs: [{ options: "-p", form: "either" }] },
    { programs: ["redis-cli", "valkey-cli", "keydb-cli"], keywords: ["-cli"], specs: [{ options: "-a|--pass", form: "either" }, redisAuth] },
    {
      programs: ["mongosh", "mongo", "mongodump", "mongorestore", "mongoexport", "mongoimport", "mongostat", "mongotop", "mongofiles"],
      keywords: ["mongo"],
      specs: [{ options: "-p", form: "either" }],
    },
    { programs: ["sqlcmd", "bcp", "osql"], keywords: ["sqlcmd", "bcp", "osql"], specs: [{ options: "-P", form: "either" }] },
    {
      programs: ["ldapsearch", "ldapadd", "ldapmodify", "ldapdelete", "ldapwhoami", "ldapcompare", "ldapmodrdn", "ldapexop", "ldapurl"],
      keywords: ["ldap"],
      specs: [{ options: "-w", form: "either" }],
    },
    { programs: ["ldappasswd"], keywords: ["ldap"], specs: [{ options: "-w|-a|-s", form: "either" }] },
    { programs: ["ssh-keygen"], keywords: ["ssh-keygen"], specs: [{ options: "-N|-P", form: "either" }] },
    {
      programs: ["keytool", "jarsigner"],
      keywords: ["keytool", "jarsigner"],
      specs: [{ options: "-storepass|-keypass|-srcstorepass|-deststorepass|-srckeypass|-destkeypass|-new", form: "separate" }],
    },
    { programs: ["zip", "unzip", "funzip"], keywords: ["zip"], specs: [{ options: "-P", form: "either" }] },
    { programs: ["7z", "7za", "7zr", "7zz"], keywords: ["7z"], specs: [{ options: "-p", form: "attached" }] },
    { programs: ["rar", "unrar", "winrar"], keywords: ["rar"], specs: [{ options: "-p|-hp", form: "attached" }] },
    { programs: ["htpasswd"], keywords: ["htpasswd"], specs: [htpasswd] },
    { programs: ["sqlplus", "expdp", "impdp", "sqlldr", "dgmgrl"], keywords: ["sqlplus", "expdp", "impdp", "sqlldr", "dgmgrl"], specs: [oracleLogon] },
    {
      programs: ["docker", "podman", "buildah", "nerdctl", "skopeo", "oras", "crane", "regctl", "helm", "az", "oc", "cf"],
      keywords: ["login"],
      specs: [{ options: "-p", form: "either", after: "login" }],
    },
    { programs: ["gh"], keywords: ["secret"], specs: [{ options: "-b|--body", form: "either", after: String.raw`secret\s+set` }] },
    {
      programs: ["curl"],
      keywords: ["curl"],
      specs: [
        { options: "-u|-U|--user|--proxy-user", form: "either", user: ":" },
        { options: "-b", form: "either", holds: "=" },
      ],
    },
    { programs: ["openssl"], keywords: ["openssl"], specs: [{ options: "-k", form: "separate" }] },
    { programs: ["smbclient", "rpcclient", "smbcacls", "smbget"], keywords: ["smb", "rpcclient"], specs: [{ options: "-U|--user", form: "either", user: "%" }] },
    { programs: ["xfreerdp", "xfreerdp3", "wlfreerdp", "sdl-freerdp", "sdl-freerdp3"], keywords: ["freerdp"], specs: [{ options: "/p:", form: "attached" }] },
    {
      programs: ["rdesktop", "psexec", "psexec64", "paexec", "useradd", "usermod"],
      keywords: ["rdesktop", "psexec", "paexec", "useradd", "usermod"],
      specs: [{ options: "-p", form: "separate" }],
    },
    { programs: ["mosquitto_pub", "mosquitto_sub", "mosquitto_rr"], keywords: ["mosquitto"], specs: [{ options: "-P", form: "separate" }] },
    { programs: ["nmcli"], keywords: ["nmcli"], specs: [{ options: String.raw`password|wifi-sec\.psk|802-1x\.password`, form: "separate" }] },
  ];
}

/**
 * An option of the spec, its separator and its value (quoted, or up to the next space). A value that starts like an
 * option is the next option, and an empty `''` (ssh-keygen's "no passphrase") is no secret: both are kept.
 */
function optionPattern(spec: OptionSpec): RegExp {
  const separator = spec.form === "attached" ? "()(?![\\s-])" : spec.form === "separate" ? "(\\s+|=)" : "(\\s+|=|(?<=\\s-[A-Za-z]))";
  return new RegExp(`(\\s(?:${spec.options}))${separator}(?!-)(?!\\[REDACTED\\])(?!''|"")(${ARGUMENT})`, "g");
}

function optionReplacer(spec: OptionSpec): Replacer {
  return (match, head, separator, value) => {
    if (spec.holds !== undefined && !value.includes(spec.holds)) return match;
    if (spec.user === undefined) return `${head}${spec.form === "attached" ? "" : separator || " "}${REDACTED}`;
    const quote = value[0] === '"' || value[0] === "'" ? value[0] : "";
    const inner = quote ? value.slice(1, -1) : value;
    const at = inner.indexOf(spec.user);
    return at < 0 ? match : `${head}${separator}${quote}${inner.slice(0, at + 1)}${REDACTED}${quote}`;
  };
}

type Redactor = (rest: string) => string;

/** One spec over the text after the command word (only after its `after` word, when it has one). */
function specRedactor(spec: OptionSpec | PatternSpec): Redactor {
  if ("pattern" in spec) {
    const pattern = spec.pattern();
    return (rest) => rest.replace(pattern, spec.replace);
  }
  const pattern = optionPattern(spec);
  const replace = optionReplacer(spec);
  if (spec.after === undefined) return (rest) => rest.replace(pattern, replace);
  const after = new RegExp(`\\s(?:${spec.after})(?=\\s|$)`);
  return (rest) => {
    const at = rest.search(after);
    return at < 0 ? rest : `${rest.slice(0, at)}${rest.slice(at).replace(pattern, replace)}`;
  };
}

let rows: readonly ProgramOptions[] | null = null;
/**
 * A row's command word, compiled the first time a command holds the row's keywords (one RegExp alternating every
 * program of the table cost a hook ~0.2 ms to compile, a row's own a tenth of that), and its redactor, compiled the
 * first time the word is found (`gzip` holds the keyword of `zip` but not its command word).
 */
const rowWords = new Map<ProgramOptions, RegExp>();
const rowRedactors = new Map<ProgramOptions, Redactor>();

/** A command word: not inside another word or a file name (`gzip`, `a.zip`), followed by a space (or its path's quote). */
function rowWord(row: ProgramOptions): RegExp {
  let word = rowWords.get(row);
  if (!word) {
    word = new RegExp(`(?<![\\w.-])(?:${row.programs.join("|")})(?:\\.exe)?(?=["']?\\s)`, "i");
    rowWords.set(row, word);
  }
  return word;
}

function rowRedactor(row: ProgramOptions): Redactor {
  let redactor = rowRedactors.get(row);
  if (!redactor) {
    const each = row.specs.map(specRedactor);
    redactor = (rest) => each.reduce((text, one) => one(text), rest);
    rowRedactors.set(row, redactor);
  }
  return redactor;
}

/**
 * One command (up to `|`, `;`, `&` or a line break, quoted strings whole): each row whose command word it holds
 * applies from that word's first occurrence to the end of the command, so `docker exec db mysql -pX` and
 * `sudo -u me redis-cli -a X` are both found. Rows are applied from the last-starting one back, so every start offset
 * stays valid.
 */
function redactCommand(command: string): string {
  const lower = command.toLowerCase();
  const starts: Array<[ProgramOptions, number]> = [];
  for (const row of (rows ??= programOptions())) {
    if (!holdsAny(lower, row.keywords)) continue;
    const found = rowWord(row).exec(command);
    if (found) starts.push([row, found.index + found[0].length]);
  }
  starts.sort((a, b) => b[1] - a[1]);
  let out = command;
  for (const [row, at] of starts) out = `${out.slice(0, at)}${rowRedactor(row)(out.slice(at))}`;
  return out;
}

/**
 * Every row's keywords, the gate of the table's rule: a literal, not collected from the table, so the table is made
 * only when a text needs it; test/unit/redact-keywords.test.ts holds it equal to the rows' keywords.
 */
export const PROGRAM_KEYWORDS: readonly string[] = [
  "mysql", "mariadb", "sshpass", "-cli", "mongo", "sqlcmd", "bcp", "osql", "ldap", "ssh-keygen", "keytool", "jarsigner", "zip", "7z",
  "rar", "htpasswd", "sqlplus", "expdp", "impdp", "sqlldr", "dgmgrl", "login", "secret", "curl", "openssl", "smb", "rpcclient",
  "freerdp", "rdesktop", "psexec", "paexec", "useradd", "usermod", "mosquitto", "nmcli",
];

export const SECRET_RULES: readonly SecretRule[] = [
  // Blocks and token shapes.
  {
    name: "PEM private key (an unterminated block takes the rest of the text)",
    keywords: ["-----begin"],
    pattern: () => /-----BEGIN [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY(?: BLOCK)?-----|$)/g,
    replace: REDACTED,
  },
  { name: "other PEM blocks", keywords: ["-----begin"], pattern: () => /-----BEGIN [A-Z0-9 ]+-----[\s\S]*?-----END [A-Z0-9 ]+-----/g, replace: REDACTED },
  token("Stripe secret and restricted keys", ["sk_live", "sk_test", "rk_live", "rk_test"], () => /\b(?:sk_live|sk_test|rk_live|rk_test)_[A-Za-z0-9]{8,}/g),
  token("OpenAI / Anthropic style keys", ["sk-"], () => /\bsk-[A-Za-z0-9_-]{16,}/g),
  token("Stripe publishable keys", ["pk_live", "pk_test"], () => /\bpk_(?:live|test)_[A-Za-z0-9]{8,}/g),
  token("GitHub fine-grained tokens", ["github_pat_"], () => /\bgithub_pat_[A-Za-z0-9_]{20,}/g),
  token("GitHub tokens", ["ghp_", "gho_", "ghu_", "ghs_", "ghr_"], () => /\bgh[pousr]_[A-Za-z0-9]{20,}/g),
  token("GitLab tokens", ["glpat-", "glptt-", "gldt-", "glrt-", "glcbt-"], () => /\bgl(?:pat|ptt|dt|rt|cbt)-[A-Za-z0-9_-]{16,}/g),
  token("Slack bot, user, app and config tokens", ["xox", "xapp-"], () => /\b(?:xox[a-z]|xapp)-[A-Za-z0-9-]{10,}/g),
  {
    name: "webhook URLs whose path is the credential (Slack, Discord, Microsoft Teams, Zapier, IFTTT): the path after the endpoint",
    keywords: ["hooks.slack.com", "discord", "webhook.office.com", "hooks.zapier.com", "maker.ifttt.com"],
    pattern: () =>
      /(\bhttps?:\/\/(?:hooks\.slack\.com\/(?:services|workflows|triggers)\/|(?:ptb\.|canary\.)?discord(?:app)?\.com\/api\/(?:v\d+\/)?webhooks\/|[a-z0-9-]+\.webhook\.office\.com\/webhookb2\/|hooks\.zapier\.com\/hooks\/catch\/|maker\.ifttt\.com\/(?:trigger\/[^/\s]+\/with\/key\/|use\/)))(?!\[REDACTED\])[A-Za-z0-9/_@.-]+/gi,
    replace: keepHead,
  },
  token("Telegram bot tokens `<bot id>:<35 characters>` (also in `api.telegram.org/bot…`)", [":a"], () => /(?<!\d)\d{5,16}:A[A-Za-z0-9_-]{34}(?![A-Za-z0-9_-])/g),
  token("AWS access key ids", ["akia", "asia", "a3t", "agpa", "aida", "aroa", "aipa", "anpa", "anva"], () => /\b(?:A3T[A-Z0-9]|AKIA|ASIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA)[A-Z0-9]{16}\b/g),
  token("Google API keys", ["aiza"], () => /\bAIza[0-9A-Za-z_-]{35}\b/g),
  token("npm tokens", ["npm_"], () => /(?<![A-Za-z0-9_])npm_[A-Za-z0-9]{36}(?![A-Za-z0-9_])/g),
  token("JWTs and other base64url JSON (`eyJ…`)", ["eyj"], () => /(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{16,}(?:\.[A-Za-z0-9_-]*){0,4}={0,2}/g),
  token(
    "other vendor token shapes (secretlint's recommended preset)",
    ["shpat_", "shpca_", "shppa_", "shpss_", "hvs.", "hvb.", "hvr.", "dckr_pat_", "hf_", "gsk_", "glc_", "glsa_", "lin_api_", "ntn_", "figd_", "dapi", "pypi-", "dop_v1_", "doo_v1_", "age-secret-key-"],
    () => new RegExp(
      String.raw`(?<![A-Za-z0-9_])(?:shp(?:at|ca|pa|ss)_[A-Fa-f0-9]{32}|hv[sbr]\.[A-Za-z0-9_-]{24,}|dckr_pat_[A-Za-z0-9_-]{27,}|hf_[A-Za-z]{34}|gsk_[A-Za-z0-9]{52}|glc_[A-Za-z0-9+/]{32,}={0,2}|glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}|lin_api_[A-Za-z0-9_]{32,}|ntn_[0-9]{11}[A-Za-z0-9]{35}|figd_[A-Za-z0-9_-]{40,}|dapi[a-f0-9]{32}(?:-[0-9])?|pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,}|do[op]_v1_[a-f0-9]{64}|AGE-SECRET-KEY-1[0-9A-Z]{58})(?![A-Za-z0-9_])`,
      "g",
    ),
  ),
  token("SendGrid keys", ["sg."], () => /(?<![A-Za-z0-9_])SG\.[\w-]{16,}\.[\w-]{16,}(?![A-Za-z0-9_])/g),
  {
    name: "Authorization / auth header values, scheme included, up to the end of the header",
    keywords: ["auth"],
    pattern: () => /\b(authorization|auth)(["']?)(\s*[:=]\s*)(["']?)([^"'\r\n;]*)/gi,
    replace: (_m, key, keyQuote, sep, quote) => `${key}${keyQuote}${sep}${quote}${REDACTED}`,
  },
  {
    name: "npmrc `_auth` (base64 user:password)",
    keywords: ["_auth"],
    pattern: () => /(?<![A-Za-z0-9])(_auth\s*=\s*)(?!\[REDACTED\])(?:"[^"]*"|'[^']*'|[^\s"']+)/g,
    replace: keepHead,
  },
  {
    name: "Cookie / Set-Cookie header values, up to the end of the header",
    keywords: ["cookie"],
    pattern: () => /\b((?:set-)?cookie)(["']?)(\s*:\s*)(["']?)([^"'\r\n]*)/gi,
    replace: (_m, key, keyQuote, sep, quote) => `${key}${keyQuote}${sep}${quote}${REDACTED}`,
  },
  { name: "Bearer tokens", keywords: ["bearer"], pattern: () => /\bBearer\s+(?!\[REDACTED\])[A-Za-z0-9._~+/=-]{12,}/g, replace: `Bearer ${REDACTED}` },
  { name: "Basic credentials", keywords: ["basic"], pattern: () => /\bBasic\s+(?!\[REDACTED\])[A-Za-z0-9+/]{8,}={0,2}/g, replace: `Basic ${REDACTED}` },

  // Command-line forms.
  {
    name: "options and arguments of a program that take a secret, matched on its command word (`programOptions()`)",
    keywords: PROGRAM_KEYWORDS,
    pattern: () => /(?:"[^"]*"|'[^']*'|[^\n|;&])+/g,
    replace: redactCommand,
  },
  {
    name: "long options that take a secret: `--password X`, `--password=X`, `--passphrase X`, `--token X`, `--api-key X`, `--jwt X`, `--cookie X`…",
    keywords: ["passw", "passphrase", "token", "secret", "key", "jwt", "cookie"],
    pattern: () => new RegExp(String.raw`(--[A-Za-z0-9-]*?(?:password|passwd|passphrase|token|secret|api-?key|access-?key|secret-?key|jwt|cookie)(?:=|\s+))${OPTION_VALUE}`, "gi"),
    replace: keepHead,
  },
  {
    name: "option values given as `pass:<secret>` (openssl's `-passin`/`-passout`/`-pass`, apksigner's `--ks-pass`/`--key-pass`)",
    keywords: ["pass:"],
    pattern: () => new RegExp(String.raw`(\s--?[A-Za-z-]*pass[A-Za-z-]*(?:\s+|=)pass:)${OPTION_VALUE}`, "g"),
    replace: keepHead,
  },
  {
    name: "config setters `aws configure set aws_secret_access_key X`, `git config x.token X`, `npm config set …:_authToken X`",
    keywords: ["configure", "git config", "config set"],
    pattern: () => new RegExp(
      String.raw`(\b(?:aws\s+configure\s+set|git\s+config|(?:npm|pnpm|yarn)\s+config\s+set)\s+(?:--?[A-Za-z-]+\s+)*\S*?(?:${SECRET_WORDS}|_auth)\S*\s+)${OPTION_VALUE}`,
      "gi",
    ),
    replace: keepHead,
  },
  {
    name: "SQL that sets a password: `IDENTIFIED BY 'x'` (also `IDENTIFIED WITH plugin BY`, Oracle's unquoted `IDENTIFIED BY x`), `[WITH] PASSWORD 'x'`, `PASSWORD = N'x'`, `PASSWORD('x')`",
    keywords: ["identified", "passw"],
    pattern: () =>
      /((?<![\w"'.-])IDENTIFIED\s+(?:WITH\s+\S+\s+)?BY\s+(?:(?:PASSWORD|VALUES)\s+)?|(?<![\w"'.-])PASSWORD(?:\s*=\s*|\s+|\s*\(\s*)(?:PASSWORD\s*\(\s*)?N?(?=['"]))(?!'?\[REDACTED\])('(?:[^']|'')*'|"(?:[^"]|"")*"|[^\s;,'"()]+)/gi,
    replace: (_m, head, value) => `${head}${redactedLike(value)}`,
  },
  {
    name: "connection strings with credentials: URLs `scheme://user:X@` (a password may hold `@`; the user may be empty) and Oracle's `jdbc:oracle:thin:user/X@`",
    keywords: ["@"],
    pattern: () => /(\b[a-z][a-z0-9+.-]*:\/\/[^\s:/@"']*:|\bjdbc:oracle:thin:[^\s:/@"']+\/)[^\s/"']*@/gi,
    replace: (_m, head) => `${head}${REDACTED}@`,
  },
  {
    name: "signed-URL signatures and tokens (Azure SAS `sig=`, AWS / GCS presigned URLs)",
    keywords: ["sig=", "signature=", "security-token="],
    pattern: () => /([?&](?:sig|x-amz-signature|x-amz-security-token|x-goog-signature)=)(?!\[REDACTED\])[^&\s"'#]+/gi,
    replace: keepHead,
  },

  // Assignments, credential files' lines and key/value pairs.
  {
    name: "environment assignments `PGPASSWORD=`, `MYSQL_PWD=`, `SSHPASS=`, `*PASSWORD=`, `*TOKEN=`, `*SECRET=`, `*API_KEY=`…",
    keywords: ["passw", "pwd", "token", "secret", "key", "sshpass"],
    pattern: () => /\b(PGPASSWORD|MYSQL_PWD|SSHPASS|[A-Za-z_][A-Za-z0-9_]*(?:PASSWORD|PASSWD|PWD|TOKEN|SECRET|API_KEY|APIKEY))=(?!\[REDACTED\])(?:"[^"]*"|'[^']*'|[^\s"']+)/gi,
    replace: (_m, name) => `${name}=${REDACTED}`,
  },
  {
    name: "upper-case environment assignments `*_PASS=`, `*_KEY=`, `*_PASSPHRASE=`, `*_CREDENTIALS=`, `*_AUTH=`, `*_PAT=` (`DB_PASS`, `ENCRYPTION_KEY`, `REDISCLI_AUTH`, `GH_PAT`)",
    keywords: ["_pass", "_key", "_credential", "_auth", "_pat"],
    pattern: () => /(?<![A-Za-z0-9_])([A-Z][A-Z0-9_]*_(?:PASS|KEY|PASSPHRASE|CREDENTIALS?|AUTH|PAT))=(?!\[REDACTED\])(?:"[^"]*"|'[^']*'|[^\s"']+)/g,
    replace: (_m, name) => `${name}=${REDACTED}`,
  },
  {
    name: "credential files' lines: .netrc `machine h login u password X` (and `account X`), .pgpass `host:port:db:user:X`, kubeconfig `client-key-data: X`, redis.conf `requirepass X` / `masterauth X`, ldap.conf `bindpw X`, slapd `rootpw X`, wpa_supplicant `psk=X`",
    keywords: ["machine", "pgpass", ":5432:", ":6432:", ":*:", "client-key-data", "requirepass", "masterauth", "bindpw", "rootpw", "psk"],
    pattern: () => new RegExp(
      [
        String.raw`(\bmachine\s+\S+(?:\s+(?:login|password|passwd|account|port)\s+(?:"[^"]*"|\S+))+)`,
        // .pgpass: the fifth field runs to the end of the line (it may hold spaces); `\:` and `\\` are escapes.
        String.raw`(?<![^\s"'=])((?:\\.|[^\s:"'\\])+:(?:\d{1,5}|\*):(?:\\.|[^\s:"'\\])+:(?:\\.|[^\s:"'\\])+:)(?!\[REDACTED\])(?:\\.|[^\r\n"'\\])+`,
        String.raw`(\b(?:client-key-data|requirepass|masterauth|bindpw|rootpw|psk)["']?(?:\s*[:=]\s*|\s+))(?!["']?\[REDACTED\])("[^"]*"|'[^']*'|[^\s,;"']+)`,
      ].join("|"),
      "gi",
    ),
    replace: (match, netrc, pgpass, key, value) => {
      if (netrc) return netrc.replace(/(\s(?:password|passwd|account)\s+)(?:"[^"]*"|\S+)/gi, `$1${REDACTED}`);
      if (pgpass) return `${pgpass}${REDACTED}`;
      return key ? `${key}${redactedLike(value as string)}` : match;
    },
  },
  {
    name: "key/value pairs `key=value` / `key: value` whose key names a secret",
    keywords: ["passw", "passphrase", "pwd", "secret", "token", "key"],
    pattern: () => new RegExp(String.raw`(["']?)\b(${SECRET_KEY})\1(\s*[:=]\s*)(?!(?:N?')?\[REDACTED\])("[^"]*"|'[^']*'|[^\s,;&}"']+)`, "gi"),
    replace: (_m, quote, key, sep, value) => `${quote}${key}${quote}${sep}${redactedLike(value)}`,
  },
];

/**
 * The gate before any rule: every rule keyword holds one of these (the rules' keywords less those that hold another,
 * `passw` standing for `password`), tested with `includes` on the lower-cased text: most recorded items (paths,
 * commands) hold none and are returned as is. One RegExp alternating the keywords read the same but cost a hook
 * ~0.3 ms to compile on its first test; the loop costs microseconds. ASCII keywords on lower-cased text match every
 * case variant a case-insensitive RegExp would (a few non-ASCII letters lower-case to ASCII, which only runs a rule
 * more). A literal: this module is evaluated by every hook, and collecting the ~130 keywords from the rules cost it
 * ~0.05 ms; test/unit/redact-keywords.test.ts holds the list to the rules' keywords.
 */
export const KEYWORDS: readonly string[] = [
  "-----begin", "sk_live", "sk_test", "rk_live", "rk_test", "sk-", "pk_live", "pk_test", "ghp_", "gho_", "ghu_",
  "ghs_", "ghr_", "glpat-", "glptt-", "gldt-", "glrt-", "glcbt-", "xox", "xapp-", "hooks.slack.com", "discord",
  "webhook.office.com", "hooks.zapier.com", "maker.ifttt.com", ":a", "akia", "asia", "a3t", "agpa", "aida", "aroa",
  "aipa", "anpa", "anva", "aiza", "npm_", "eyj", "shpat_", "shpca_", "shppa_", "shpss_", "hvs.", "hvb.", "hvr.",
  "hf_", "gsk_", "glc_", "glsa_", "lin_api_", "ntn_", "figd_", "dapi", "pypi-", "dop_v1_", "doo_v1_", "sg.", "auth",
  "cookie", "bearer", "basic", "mysql", "mariadb", "sshpass", "-cli", "mongo", "sqlcmd", "bcp", "osql", "ldap",
  "jarsigner", "zip", "7z", "rar", "sqlplus", "expdp", "impdp", "sqlldr", "dgmgrl", "login", "secret", "curl",
  "openssl", "smb", "rpcclient", "freerdp", "rdesktop", "psexec", "paexec", "useradd", "usermod", "mosquitto",
  "nmcli", "passw", "passphrase", "token", "key", "jwt", "pass:", "configure", "git config", "config set",
  "identified", "@", "sig=", "signature=", "pwd", "_pass", "_credential", "_pat", "machine", "pgpass", ":5432:",
  ":6432:", ":*:", "requirepass", "bindpw", "rootpw", "psk",
];

const compiled: Array<RegExp | undefined> = [];

/**
 * Whether the lower-cased text holds one of the keywords. A plain loop: a hook runs this in the interpreter, where a
 * callback per keyword (`some`) cost twice as much per text and ~0.1 ms on a process's first texts.
 */
function holdsAny(lower: string, keywords: readonly string[]): boolean {
  for (let i = 0; i < keywords.length; i++) if (lower.includes(keywords[i] as string)) return true;
  return false;
}

/** Replaces every supported secret form with `[REDACTED]`. Pure; safe on any string. */
export function redactSecrets(text: string): string {
  if (!text) return text;
  const lower = text.toLowerCase();
  if (!holdsAny(lower, KEYWORDS)) return text;
  let out = text;
  for (let index = 0; index < SECRET_RULES.length; index++) {
    const rule = SECRET_RULES[index] as SecretRule;
    if (!holdsAny(lower, rule.keywords)) continue;
    const pattern = (compiled[index] ??= rule.pattern());
    out = out.replace(pattern, rule.replace as Replacer);
  }
  return out;
}

/** The keywords a key that names a secret holds (`db_password`, `apiKey`, `client-key-data`, `Authorization`). */
const KEY_WORDS = ["passw", "passphrase", "pwd", "secret", "token", "key", "auth", "cookie", "psk"] as const;
let secretKeyName: RegExp | null = null;

/**
 * The family "a key that names a secret" for a JSON object's keys (`--meta '{"db_password":"x"}'`): the value of
 * such a key is a secret whatever it looks like, as in `db_password=x`.
 */
export function namesSecret(key: string): boolean {
  const lower = key.toLowerCase();
  if (!holdsAny(lower, KEY_WORDS)) return false;
  secretKeyName ??= new RegExp(String.raw`^(?:${SECRET_KEY}|_?auth|authorization|(?:set-)?cookie|client-key-data|psk)$`, "i");
  return secretKeyName.test(key);
}

/**
 * Redacts every string inside a JSON-like value (objects and arrays are copied); a string under a key that names a
 * secret is replaced whole (numbers are kept: `token_count` and `input_tokens` are counts).
 */
export function redactDeep<T>(value: T): T {
  if (typeof value === "string") return redactSecrets(value) as T;
  if (Array.isArray(value)) return value.map((item) => redactDeep(item)) as T;
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
      out[key] = typeof item === "string" && item !== "" && namesSecret(key) ? REDACTED : redactDeep(item);
    }
    return out as T;
  }
  return value;
}
