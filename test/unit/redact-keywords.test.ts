/**
 * The redaction gate (src/text/redact.ts) tests each rule's keywords with `includes` on the lower-cased text, so a
 * keyword must be lower-case ASCII: an upper-case one would never match and its rule would never run. The gate
 * before the rules and the program table's keywords are literal lists (collecting them costs every hook), which must
 * stay the rules' and the rows' keywords.
 */
import { describe, expect, test } from "bun:test";
import { KEYWORDS, namesSecret, PROGRAM_KEYWORDS, programOptions, REDACTED, redactSecrets, SECRET_RULES } from "../../src/text/redact.ts";

describe("redaction keywords", () => {
  test("every rule has keywords, each lower-case ASCII", () => {
    for (const rule of SECRET_RULES) {
      expect({ rule: rule.name, count: rule.keywords.length > 0 }).toEqual({ rule: rule.name, count: true });
      for (const keyword of rule.keywords) expect({ rule: rule.name, keyword }).toEqual({ rule: rule.name, keyword: keyword.toLowerCase().replace(/[^\x20-\x7e]/g, "") });
    }
  });

  test("the gate is case-insensitive: upper- and mixed-case forms are still redacted", () => {
    expect(redactSecrets("export DB_PASSWORD=hunter22")).toBe(`export DB_PASSWORD=${REDACTED}`);
    expect(redactSecrets("AKIAIOSFODNN7EXAMPLE")).toBe(REDACTED);
    expect(redactSecrets("curl -H 'AUTHORIZATION: Bearer abcdefghijklmnop1234'")).not.toContain("abcdefghijklmnop1234");
  });

  test("text without a keyword comes back as it is", () => {
    const text = "src/components/CartSummary.tsx";
    expect(redactSecrets(text)).toBe(text);
  });

  test("the gate before the rules lets every rule's keywords through, and nothing else", () => {
    const ruleKeywords = SECRET_RULES.flatMap((rule) => rule.keywords);
    expect(ruleKeywords.filter((keyword) => !KEYWORDS.some((gate) => keyword.includes(gate)))).toEqual([]);
    expect(KEYWORDS.filter((gate) => !ruleKeywords.includes(gate))).toEqual([]);
    expect(new Set(KEYWORDS).size).toBe(KEYWORDS.length);
  });

  test("every program row is reached: its keywords are in each command word or in the word its options come after, and the rule's gate holds them all", () => {
    const uncovered: string[] = [];
    const keywords = new Set<string>();
    for (const row of programOptions()) {
      for (const keyword of row.keywords) keywords.add(keyword);
      const afters = row.specs.flatMap((spec) => ("after" in spec && spec.after !== undefined ? [spec.after] : []));
      for (const program of row.programs) {
        if (![program, ...afters].some((word) => row.keywords.some((keyword) => word.includes(keyword)))) uncovered.push(program);
      }
    }
    expect(uncovered).toEqual([]);
    expect([...PROGRAM_KEYWORDS].sort()).toEqual([...keywords].sort());
  });

  test("a key names a secret by the key/value family's words", () => {
    expect(["db_password", "apiToken", "client_secret", "Authorization", "client-key-data", "psk"].filter((key) => !namesSecret(key))).toEqual([]);
    expect(["tool", "file", "keys", "command", "summary", "written_by", "harness_session_id"].filter(namesSecret)).toEqual([]);
  });
});
