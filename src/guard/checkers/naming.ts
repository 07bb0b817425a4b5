import type { CheckFile, CheckOptions, Finding, Severity } from "./types.ts";

/** Checker `source-code-language` (spec 6.9): identifiers and paths written in Portuguese/Spanish. */

const ROLE_WORDS = new Set(
  (
    "servidor servidores servico servicos servicio servicios rota rotas ruta rutas nucleo dominio dominios " +
    "controlador controladores repositorio repositorios modelo modelos fabrica fabricas biblioteca bibliotecas " +
    "pacote pacotes modulo modulos componente componentes utilitario utilitarios ajudante auxiliar apoio ajuda " +
    "arquivo arquivos archivo archivos ficheiro ficheiros diretorio diretorios carpeta tipos estado estados consulta " +
    "consultas requisicao requisicoes resposta respostas respuesta usuario usuarios senha senhas contrasena erro erros " +
    "falha falhas teste testes prueba pruebas formulario formularios botao botoes boton botones mensagem mensagens " +
    "mensaje mensajes pagina paginas pantalla tela telas midia midias controle controles envio envios nome nomes " +
    "numero numeros texto textos titulo titulos chave chaves " +
    "criar crear adicionar agregar atualizar actualizar excluir apagar remover eliminar borrar buscar pesquisar " +
    "procurar encontrar salvar guardar gravar enviar receber listar obter definir calcular carregar mostrar exibir " +
    "ocultar esconder abrir fechar cerrar iniciar comecar parar copiar colar mover ordenar filtrar contar somar " +
    "formatar validar verificar checar marcar selecionar limpar editar visualizar gerar processar executar tratar " +
    "montar aplicar renderizar atribuir alterar trocar"
  ).split(" "),
);

const PARTICLES = new Set(["da", "das", "dos", "pelo", "pela", "nao", "dele", "dela"]);

const SUFFIXES: ReadonlyArray<[string, number]> = [
  ["cao", 6], ["coes", 7], ["agem", 6], ["agens", 7], ["dade", 7], ["dades", 8], ["mento", 7], ["mentos", 8],
  ["ador", 7], ["adores", 8], ["encia", 7], ["ancia", 7], ["avel", 8], ["aveis", 8], ["eiro", 7], ["eira", 7],
];

const ENGLISH_EXCEPTIONS = new Set(
  "memento pimento cacao travel gravel marvel unravel matador labrador ambassador cascade facade upgrade increment implement compliment supplement department".split(" "),
);

const SKIPPED_SEGMENTS = new Set(["src", "lib", "app", "test", "tests", "e2e", "public", "assets", "index"]);

/**
 * The four declaration shapes of spec 6.9 in one pass (one capture group each). It runs over the whole
 * file at once, so its blanks are `[^\S\n]`: a declaration never spans two lines.
 */
const DECLARATION =
  /\b(?:function|class|interface|enum|trait|struct|module)[^\S\n]+\*?[^\S\n]*([A-Za-z_$\u00c0-\u024f][\w$\u00c0-\u024f]*)|\b(?:const|let|var|type)[^\S\n]+([A-Za-z_$\u00c0-\u024f][\w$\u00c0-\u024f]*)|\b(?:def|fn|func|sub)[^\S\n]+([A-Za-z_\u00c0-\u024f][\w\u00c0-\u024f]*)|\$([A-Za-z_\u00c0-\u024f][\w\u00c0-\u024f]*)[^\S\n]*=(?!=)/g;

const ACCENTED = /[\u00c0-\u024f]/;
const NON_ASCII = /[^\x00-\x7f]/;

function fold(text: string): string {
  return NON_ASCII.test(text) ? text.normalize("NFD").replace(/[\u0300-\u036f]/g, "").toLowerCase() : text.toLowerCase();
}

/** camel/Pascal boundaries, `_`, `-`, `.`, `/` and digits split an identifier into words. */
export function identifierWords(identifier: string): string[] {
  return identifier
    .replace(/([a-z\u00df-\u00ff])([A-Z\u00c0-\u00de])/g, "$1 $2")
    .replace(/([A-Z\u00c0-\u00de]+)([A-Z\u00c0-\u00de][a-z\u00df-\u00ff])/g, "$1 $2")
    .split(/[\s_\-./\d$]+/)
    .map(fold)
    .filter(Boolean);
}

export type Classification = { severity: Severity; reason: string } | null;

const verdicts = new Map<string, Classification>();

/** Memoized: a file declares the same local names over and over. */
export function classifyIdentifier(identifier: string): Classification {
  let verdict = verdicts.get(identifier);
  if (verdict === undefined) {
    verdict = classifyWords(identifier);
    verdicts.set(identifier, verdict);
  }
  return verdict;
}

function classifyWords(identifier: string): Classification {
  const words = identifierWords(identifier);
  const role = words.find((word) => ROLE_WORDS.has(word));
  if (role) return { severity: "HIGH", reason: `translated scaffolding word "${role}"` };
  if (words.length >= 2) {
    const particle = words.find((word) => PARTICLES.has(word));
    if (particle) return { severity: "MED", reason: `Portuguese/Spanish particle "${particle}"` };
  }
  for (const word of words) {
    if (ENGLISH_EXCEPTIONS.has(word)) continue;
    const suffix = SUFFIXES.find(([end, min]) => word.endsWith(end) && word.length >= min);
    if (suffix) return { severity: "MED", reason: `Portuguese/Spanish suffix "-${suffix[0]}"` };
  }
  if (ACCENTED.test(identifier)) return { severity: "MED", reason: "accented identifier" };
  return null;
}

/** The basename without extension and without `.test/.spec/.stories/.d`. */
export function stemOf(name: string): string {
  const dot = name.lastIndexOf(".");
  const stem = dot > 0 ? name.slice(0, dot) : name;
  return stem.replace(/\.(test|spec|stories|d)$/i, "");
}

/**
 * Blanks string literals (same length) so that words inside them are never read as declarations.
 * A literal never spans a line (`.` stops at line ends), so blanking the whole text equals blanking each line.
 */
function blankStrings(text: string): string {
  return text.replace(/(["'`])(?:\\.|(?!\1).)*\1/g, (m) => " ".repeat(m.length));
}

function isCommentLine(line: string): boolean {
  return /^\s*(\/\/|\/\*|\*|#(?!\[)|--\s|<!--)/.test(line);
}

type Kind = "directory" | "filename" | "identifier";

export function checkNaming(file: CheckFile, options: CheckOptions): Finding[] {
  const out: Finding[] = [];
  const seen = new Set<string>();
  // `snippet` is a function: most declarations are repeats or plain English and never need one.
  const add = (kind: Kind, token: string, line: number | null, snippet: () => string) => {
    const key = `${kind}:${token}`;
    if (seen.has(key)) return;
    seen.add(key);
    const verdict = classifyIdentifier(token);
    if (!verdict) return;
    const label = `non-English ${kind} "${token}"`;
    out.push({
      category: "NAMING_LANGUAGE",
      severity: verdict.severity,
      message: `${label} (${verdict.reason})`,
      summary: label,
      file: file.reportFile,
      line,
      token,
      scope: kind === "directory" ? `dir:${token}` : "file",
      snippet: snippet(),
    });
  };
  const segments = file.rel.split("/").filter(Boolean);
  const name = segments.pop() ?? "";
  for (const segment of segments) if (!SKIPPED_SEGMENTS.has(segment.toLowerCase()) && !segment.startsWith(".")) add("directory", segment, null, () => file.rel);
  const stem = stemOf(name);
  if (stem && !SKIPPED_SEGMENTS.has(stem.toLowerCase())) add("filename", stem, null, () => file.rel);
  // One pass over the whole text (a cold hook path): each match is mapped back to its line.
  const text = file.lines.join("\n");
  const code = blankStrings(text);
  let index = 0;
  let start = 0;
  let end = text.indexOf("\n");
  DECLARATION.lastIndex = 0;
  for (let match = DECLARATION.exec(code); match; match = DECLARATION.exec(code)) {
    while (end >= 0 && end < match.index) {
      index++;
      start = end + 1;
      end = text.indexOf("\n", start);
    }
    const name = (match[1] ?? match[2] ?? match[3] ?? match[4]) as string;
    // A name already judged adds nothing (add() would skip it): spare its line's comment test.
    if (seen.has(`identifier:${name}`)) continue;
    const raw = text.slice(start, end < 0 ? text.length : end);
    if (isCommentLine(raw)) continue;
    add("identifier", name, index + 1, () => raw.trim().slice(0, 200));
  }
  return options.uncapped ? out : out.slice(0, 6);
}
