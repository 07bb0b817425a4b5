/**
 * Secret redaction (spec 5.8 step 4 and issue 11's list), applied before anything is stored (hooks:emit: the store
 * and its WAL, events.ndjson, state.json), before anything goes back into a model (the sanitiser) and before
 * anything is sent to the judge.
 *
 * The rules are one list, `SECRET_RULES`, applied in its order; to cover a new form, add one entry with the
 * keywords its text must contain. Order matters: token shapes, header values (`Authorization`, `Cookie`), `Bearer`
 * / `Basic` and PEM blocks go first so that a later key/value rule never leaves half a token behind; command-line
 * forms next; assignments and key/value pairs last.
 *
 * Why a hand-kept list: the maintained rule sets were weighed against the hook path's budget (this runs on every
 * string of every `hooks:emit`). secretlint's recommended preset is a 218 KB bundle of rule modules driven by
 * @secretlint/core's asynchronous file API, and gitleaks' rules are ~200 Go RE2 patterns as TOML: either costs
 * milliseconds to load and compile per call, and neither knows command-line forms (`docker login -p`,
 * `--passphrase`, `-passin pass:`, `*_PASS=`), which are most of what an agent's commands leak. The token shapes
 * below follow secretlint's rules (MIT) where they overlap; every rule is gated by gitleaks-style keywords so
 * text without them costs one regex test.
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
    name: "Slack webhook URLs",
    keywords: ["hooks.slack.com"],
    pattern: () => /(\bhttps?:\/\/hooks\.slack\.com\/(?:services|workflows|triggers)\/)[A-Za-z0-9/_-]+/gi,
    replace: keepHead,
  },
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
    name: "mysql/mariadb attached password `-p<secret>`",
    keywords: ["mysql", "mariadb"],
    pattern: () => /\b(mysql|mariadb|mysqldump|mysqladmin)\b([^\n|;&]*?\s)-p(?!\s|$)(?:"[^"]*"|'[^']*'|\S+)/g,
    replace: (_m, tool, mid) => `${tool}${mid}-p${REDACTED}`,
  },
  { name: "sshpass -p", keywords: ["sshpass"], pattern: () => /\bsshpass\s+-p\s*(?:"[^"]*"|'[^']*'|\S+)/g, replace: `sshpass -p ${REDACTED}` },
  {
    name: "long options that take a secret: `--password X`, `--password=X`, `--passphrase X`, `--token X`, `--api-key X`, `--jwt X`, `--cookie X`…",
    keywords: ["passw", "passphrase", "token", "secret", "key", "jwt", "cookie"],
    pattern: () => new RegExp(String.raw`(--[A-Za-z0-9-]*?(?:password|passwd|passphrase|token|secret|api-?key|access-?key|secret-?key|jwt|cookie)(?:=|\s+))${OPTION_VALUE}`, "gi"),
    replace: keepHead,
  },
  {
    name: "`<registry or cloud CLI> login … -p <secret>` (docker, podman, helm registry, az acr, oc, cf…)",
    keywords: ["login"],
    pattern: () => new RegExp(
      String.raw`(\b(?:docker|podman|buildah|nerdctl|skopeo|oras|crane|regctl|helm|az|oc|cf)\b[^\n|;&]*?\slogin\b[^\n|;&]*?\s-p)(\s+|(?=[^\s-]))${OPTION_VALUE}`,
      "g",
    ),
    replace: (_m, head, sep) => `${head}${sep}${REDACTED}`,
  },
  {
    name: "openssl pass phrases `-passin pass:X`, `-passout pass:X`, `-pass pass:X`, `-k X`",
    keywords: ["pass:", "openssl"],
    pattern: () => new RegExp(String.raw`(\s-(?:pass|passin|passout|password|passwd)\s+pass:|\bopenssl\b[^\n|;&]*?\s-k\s+)${OPTION_VALUE}`, "g"),
    replace: keepHead,
  },
  {
    name: "curl credentials `-u user:X`, `--user=user:X`, `--proxy-user user:X`",
    keywords: ["curl"],
    pattern: () => /(\bcurl\b[^\n|;&]*?\s(?:-u\s*|-U\s*|--user(?:\s+|=)|--proxy-user(?:\s+|=)))(["']?)([^:\s"']+):(?:[^\s"']+)\2/g,
    replace: (_m, head, quote, user) => `${head}${quote}${user}:${REDACTED}${quote}`,
  },
  {
    name: "curl cookies `-b 'name=X'`",
    keywords: ["curl"],
    pattern: () => /(\bcurl\b[^\n|;&]*?\s-b\s*)(?:"[^"]*=[^"]*"|'[^']*=[^']*'|[^\s"']*=[^\s"']*)/g,
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
    name: "`gh secret set NAME --body X`",
    keywords: ["secret"],
    pattern: () => new RegExp(String.raw`(\bgh\s+secret\s+set\b[^\n|;&]*?\s(?:-b|--body)(?:\s+|=))${OPTION_VALUE}`, "g"),
    replace: keepHead,
  },
  {
    name: "URL credentials `scheme://user:X@` (a password may hold `@`; the user may be empty)",
    keywords: ["@"],
    pattern: () => /\b([a-z][a-z0-9+.-]*:\/\/)([^\s:/@"']*):([^\s/"']*)@/gi,
    replace: (_m, scheme, user) => `${scheme}${user}:${REDACTED}@`,
  },
  {
    name: "signed-URL signatures and tokens (Azure SAS `sig=`, AWS / GCS presigned URLs)",
    keywords: ["sig=", "signature=", "security-token="],
    pattern: () => /([?&](?:sig|x-amz-signature|x-amz-security-token|x-goog-signature)=)(?!\[REDACTED\])[^&\s"'#]+/gi,
    replace: keepHead,
  },

  // Assignments and key/value pairs.
  {
    name: "environment assignments `PGPASSWORD=`, `MYSQL_PWD=`, `*PASSWORD=`, `*TOKEN=`, `*SECRET=`, `*API_KEY=`…",
    keywords: ["passw", "pwd", "token", "secret", "key"],
    pattern: () => /\b(PGPASSWORD|MYSQL_PWD|[A-Za-z_][A-Za-z0-9_]*(?:PASSWORD|PASSWD|PWD|TOKEN|SECRET|API_KEY|APIKEY))=(?!\[REDACTED\])(?:"[^"]*"|'[^']*'|[^\s"']+)/gi,
    replace: (_m, name) => `${name}=${REDACTED}`,
  },
  {
    name: "upper-case environment assignments `*_PASS=`, `*_KEY=`, `*_PASSPHRASE=`, `*_CREDENTIALS=` (`DB_PASS`, `ENCRYPTION_KEY`)",
    keywords: ["_pass", "_key", "_credential"],
    pattern: () => /(?<![A-Za-z0-9_])([A-Z][A-Z0-9_]*_(?:PASS|KEY|PASSPHRASE|CREDENTIALS?))=(?!\[REDACTED\])(?:"[^"]*"|'[^']*'|[^\s"']+)/g,
    replace: (_m, name) => `${name}=${REDACTED}`,
  },
  {
    name: "key/value pairs `key=value` / `key: value` whose key names a secret",
    keywords: ["passw", "passphrase", "pwd", "secret", "token", "key"],
    pattern: () => new RegExp(String.raw`(["']?)\b(${SECRET_KEY})\1(\s*[:=]\s*)(?!\[REDACTED\])("[^"]*"|'[^']*'|[^\s,;&}"']+)`, "gi"),
    replace: (_m, quote, key, sep, value) =>
      `${quote}${key}${quote}${sep}${value.startsWith('"') ? `"${REDACTED}"` : value.startsWith("'") ? `'${REDACTED}'` : REDACTED}`,
  },
];

/**
 * Every rule's keywords, tested with `includes` on the lower-cased text: most recorded items (paths, commands) hold
 * none and are returned as is. One RegExp alternating the ~80 keywords read the same but cost a hook ~0.3 ms to
 * compile on its first test; the loop costs microseconds. ASCII keywords on lower-cased text match every case
 * variant a case-insensitive RegExp would (a few non-ASCII letters lower-case to ASCII, which only runs a rule more).
 * Built with plain loops: this module is evaluated by every hook, where flatMap, a Set and a spread cost ~0.09 ms.
 */
const KEYWORDS: string[] = [];
for (const rule of SECRET_RULES) for (const keyword of rule.keywords) if (!KEYWORDS.includes(keyword)) KEYWORDS.push(keyword);

const compiled: Array<RegExp | undefined> = [];

/** Replaces every supported secret form with `[REDACTED]`. Pure; safe on any string. */
export function redactSecrets(text: string): string {
  if (!text) return text;
  const lower = text.toLowerCase();
  if (!KEYWORDS.some((keyword) => lower.includes(keyword))) return text;
  let out = text;
  SECRET_RULES.forEach((rule, index) => {
    if (!rule.keywords.some((keyword) => lower.includes(keyword))) return;
    const pattern = (compiled[index] ??= rule.pattern());
    out = out.replace(pattern, rule.replace as Replacer);
  });
  return out;
}

/** Redacts every string inside a JSON-like value (objects and arrays are copied). */
export function redactDeep<T>(value: T): T {
  if (typeof value === "string") return redactSecrets(value) as T;
  if (Array.isArray(value)) return value.map((item) => redactDeep(item)) as T;
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value as Record<string, unknown>)) out[key] = redactDeep(item);
    return out as T;
  }
  return value;
}
