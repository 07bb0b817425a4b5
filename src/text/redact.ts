/**
 * Secret redaction of spec 5.8 step 4, applied before anything is stored (hooks:emit) and before
 * anything goes back into a model (hooks:recap). Order matters: token shapes, `Bearer`/`Basic` and PEM
 * blocks go first so that a key/value rule never leaves half a token behind.
 */
export const REDACTED = "[REDACTED]";

type Rule = readonly [RegExp, string | ((...groups: string[]) => string)];

const SECRET_KEY = String.raw`[A-Za-z0-9_.-]*(?:password|passwd|pwd|secret|token|api[_-]?key|access[_-]?key|private[_-]?key|client[_-]?secret)[A-Za-z0-9_.-]*`;

const SHAPE_RULES: readonly Rule[] = [
  [/-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|$)/g, REDACTED],
  [/-----BEGIN [A-Z0-9 ]+-----[\s\S]*?-----END [A-Z0-9 ]+-----/g, REDACTED],
  [/\b(?:sk_live|sk_test|rk_live|rk_test)_[A-Za-z0-9]{8,}/g, REDACTED],
  [/\bsk-[A-Za-z0-9_-]{16,}/g, REDACTED],
  [/\bpk_(?:live|test)_[A-Za-z0-9]{8,}/g, REDACTED],
  [/\bgithub_pat_[A-Za-z0-9_]{20,}/g, REDACTED],
  [/\bgh[pousr]_[A-Za-z0-9]{20,}/g, REDACTED],
  [/\bglpat-[A-Za-z0-9_-]{16,}/g, REDACTED],
  [/\bxox[baprs]-[A-Za-z0-9-]{10,}/g, REDACTED],
  [/\bAKIA[0-9A-Z]{16}\b/g, REDACTED],
  [/\bAIza[0-9A-Za-z_-]{35}\b/g, REDACTED],
  [/\b(authorization|auth)(\s*[:=]\s*)(["']?)([^"'\r\n;]*)/gi, (_m, key, sep, quote) => `${key}${sep}${quote}${REDACTED}`],
  [/\bBearer\s+[A-Za-z0-9._~+/=-]{12,}/g, `Bearer ${REDACTED}`],
  [/\bBasic\s+[A-Za-z0-9+/]{8,}={0,2}/g, `Basic ${REDACTED}`],
];

const COMMAND_RULES: readonly Rule[] = [
  [/\b(mysql|mariadb|mysqldump|mysqladmin)\b([^\n|;&]*?\s)-p(?!\s|$)(?:"[^"]*"|'[^']*'|\S+)/g, (_m, tool, mid) => `${tool}${mid}-p${REDACTED}`],
  [/--password=(?:"[^"]*"|'[^']*'|\S+)/g, `--password=${REDACTED}`],
  [/\bsshpass\s+-p\s*(?:"[^"]*"|'[^']*'|\S+)/g, `sshpass -p ${REDACTED}`],
  [/(\bcurl\b[^\n|;&]*?\s(?:-u|--user)\s+)(["']?)([^:\s"']+):(?:[^\s"']+)\2/g, (_m, head, quote, user) => `${head}${quote}${user}:${REDACTED}${quote}`],
  [/\b([a-z][a-z0-9+.-]*:\/\/)([^\s:/@]+):([^\s@/]+)@/gi, (_m, scheme, user) => `${scheme}${user}:${REDACTED}@`],
];

const ASSIGNMENT_RULES: readonly Rule[] = [
  [
    /\b(PGPASSWORD|MYSQL_PWD|[A-Za-z_][A-Za-z0-9_]*(?:PASSWORD|PASSWD|PWD|TOKEN|SECRET|API_KEY|APIKEY))=(?:"[^"]*"|'[^']*'|[^\s"']+)/gi,
    (_m, name) => `${name}=${REDACTED}`,
  ],
  [
    new RegExp(String.raw`(["']?)\b(${SECRET_KEY})\1(\s*[:=]\s*)(?!\[REDACTED\])("[^"]*"|'[^']*'|[^\s,;&}"']+)`, "gi"),
    (_m, quote, key, sep, value) => `${quote}${key}${quote}${sep}${value.startsWith('"') ? `"${REDACTED}"` : value.startsWith("'") ? `'${REDACTED}'` : REDACTED}`,
  ],
];

function applyRules(text: string, rules: readonly Rule[]): string {
  let out = text;
  for (const [pattern, replacement] of rules) {
    out = out.replace(pattern, replacement as (substring: string, ...args: string[]) => string);
  }
  return out;
}

/**
 * Every rule above needs one of these in the text (case folded): a secret key or variable name
 * (`passw` of password/passwd, `pwd`, `secret`, `token`, `api_key`, `access_key`, `private_key`,
 * `auth`; not bare `pass`, which test summaries spell on every run), `curl` for
 * `-u user:pass`, `://` for URL credentials, `-p` for mysql/sshpass, or a token shape's literal
 * prefix (`sk_`/`rk_`/`pk_` at a word start, as their rules require: `task_` is not one). Text without any of them is returned as is without running the rules: most recorded
 * items are plain paths and commands. Keep it in step with the rules.
 */
const MAY_HOLD_SECRET =
  /passw|pwd|secret|token|api[_-]?key|access[_-]?key|private[_-]?key|auth|curl|:\/\/|-p|\b[prs]k[-_]|gh[pousr]_|github_pat_|glpat-|xox[baprs]-|akia|aiza|-----begin|bearer|basic/i;

/** Replaces every supported secret shape with `[REDACTED]`. Pure; safe on any string. */
export function redactSecrets(text: string): string {
  if (!text || !MAY_HOLD_SECRET.test(text)) return text;
  return applyRules(applyRules(applyRules(text, SHAPE_RULES), COMMAND_RULES), ASSIGNMENT_RULES);
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
