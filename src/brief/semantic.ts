import { norm } from "./match.ts";

/** Spec 6.5 semantic matching (the normative lexical rule). */

const STOP_WORDS = new Set(
  ("a an and as by com como da das de do dos e em for from in into no nos o os of on ou para por que the to um uma " +
    "with agent agente agents aioson dev deyvin architect feature funcionalidade task tarefa work trabalho create criar " +
    "fazer implementar implement implementation nova novo new ajuste change update evitar exposto http boundary code " +
    "codigo código component developer model module script source test").split(" "),
);

const SHORT_KEEP = new Set(["api", "sql", "orm", "php", "mvc", "dto", "ui", "ux"]);

export const FRAMEWORKS = new Set(
  "adonis angular astro django express fastapi flask hono laravel next node nuxt phoenix rails react remix svelte symfony vue".split(" "),
);

const SYNONYM_TABLE: Readonly<Record<string, readonly string[]>> = {
  ingles: ["english"],
  english: ["ingles"],
  padrao: ["pattern", "convention"],
  padroes: ["patterns", "conventions"],
  pattern: ["convention"],
  patterns: ["conventions"],
  pasta: ["folder", "directory"],
  pastas: ["folders", "directories"],
  folder: ["directory"],
  folders: ["directories"],
  componentizacao: ["componentization"],
  componentizando: ["componentization"],
  componentizar: ["componentization"],
  separacao: ["separation", "boundary"],
  separar: ["separation", "boundary"],
  manutencao: ["maintainability"],
  manutenivel: ["maintainable"],
  consulta: ["query", "queries"],
  consultas: ["query", "queries"],
  query: ["queries"],
  queries: ["query"],
  banco: ["database", "data"],
  dados: ["data", "database"],
  frameworks: ["framework"],
  framework: ["convention"],
  laravel: ["eloquent", "artisan"],
  php: ["laravel"],
  controller: ["controllers"],
  controllers: ["controller"],
  service: ["services"],
  services: ["service"],
  repository: ["repositories"],
  repositories: ["repository"],
  migration: ["migrations"],
  migrations: ["migration"],
  eloquent: ["laravel"],
  raw: ["sql"],
  sql: ["query", "database"],
};
/** A Map, so that words such as `constructor` never reach Object.prototype. */
const SYNONYMS = new Map(Object.entries(SYNONYM_TABLE));

export const MAX_TERMS = 24;

/** Term normalization: `norm`, then `/` and `-` become spaces. */
export function termNorm(text: string): string {
  return norm(text).replace(/[/-]+/g, " ").replace(/ +/g, " ").trim();
}

function pushTerms(text: string, out: string[], seen: Set<string>): void {
  const add = (term: string) => {
    if (!seen.has(term)) {
      seen.add(term);
      out.push(term);
    }
  };
  // Distinct words in first-seen order: a repeated word adds nothing new (a guard query is a whole file).
  for (const word of new Set(termNorm(text).split(" "))) {
    if (!word || STOP_WORDS.has(word)) continue;
    if (word.length < 4 && !SHORT_KEEP.has(word)) continue;
    add(word);
    if (word.endsWith("s") && word.length > 4) add(word.slice(0, -1));
    for (const synonym of SYNONYMS.get(word) ?? []) add(synonym);
  }
}

/** The first 24 semantic terms of the request; the framework words fill in when no term names one. */
export function semanticTerms(sources: readonly string[], framework: string): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const source of sources) pushTerms(source, out, seen);
  if (framework && !out.some((term) => FRAMEWORKS.has(term))) pushTerms(framework, out, seen);
  return out.slice(0, MAX_TERMS);
}

export const SEMANTIC_BASE: Readonly<Record<string, number>> = {
  rules: 26,
  design_governance: 24,
  docs: 22,
  bootstrap: 24,
  feature_dossier: 18,
};

export function semanticScore(surface: string, matched: number): number {
  return Math.min(50, (SEMANTIC_BASE[surface] ?? 16) + 7 * matched);
}
