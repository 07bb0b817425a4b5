/**
 * The redaction gate (src/text/redact.ts) tests each rule's keywords with `includes` on the lower-cased text, so a
 * keyword must be lower-case ASCII: an upper-case one would never match and its rule would never run.
 */
import { describe, expect, test } from "bun:test";
import { REDACTED, redactSecrets, SECRET_RULES } from "../../src/text/redact.ts";

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
});
