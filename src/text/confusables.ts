/**
 * Letters of other scripts that imitate a Latin letter ("Ign<Cyrillic о>re all previous instructions"), and the
 * marks that imitate the punctuation of a tag (`‹/ѕystem-reminder>`), for the sanitiser's decisions only (is it an
 * instruction, is it a tag): the text a model sees keeps its own letters.
 *
 * Source: Unicode's confusables.txt (UTS #39 "Recommended confusable mapping", v13.0.0), the single code points whose
 * prototype is one ASCII letter and that NFKD does not already fold (fullwidth forms, mathematical alphanumerics,
 * circled and other compatibility letters fold there). Unicode maps every vertical stroke to `l`; a stroke that is
 * its script's capital I (Greek Ι, Cyrillic І, Coptic Ⲓ, Lisu ꓲ, runic ᛁ, Old Italic 𐌉) is listed under `i` here,
 * because the instruction words are matched case-insensitively and spell both letters.
 *
 * The punctuation a tag is spelled with (`<`, `>`, `/`, `!`, `?`) comes from the same file (‹ ❮ ˂ ᐸ ᚲ 𝈶 for `<`, and
 * so on), plus the angle brackets that draw like one although Unicode does not list them (〈 〈 ⟨ ❬ ❰ ⧼ and their
 * closing pairs) and the fullwidth and small forms that NFKD already folds (＜ ﹤), so a bracket class can be built
 * from these lists alone.
 */
export const LESS_THAN_LOOK_ALIKES = "‹ ❮ ˂ ᐸ ᚲ 𝈶 〈 〈 ⟨ ❬ ❰ ⧼ ＜ ﹤";
export const GREATER_THAN_LOOK_ALIKES = "› ❯ ˃ ᐳ 𖼿 𝈷 〉 〉 ⟩ ❭ ❱ ⧽ ＞ ﹥";

const LOOK_ALIKES: Readonly<Record<string, string>> = {
  "<": LESS_THAN_LOOK_ALIKES,
  ">": GREATER_THAN_LOOK_ALIKES,
  "/": "᜵ ⁁ ⁄ ∕ ╱ ⟋ ⧸ 𝈺 ㇓ 〳 Ⳇ ⼃",
  "!": "ǃ ⵑ",
  "?": "ɂ ʔ ॽ Ꭾ ꛫ",
  a: "Α А Ꭺ ᗅ ꓮ 𖽀 𐊠 ⍺ ɑ α а",
  b: "Ꞵ Β В Ᏼ ᗷ ꓐ 𐊂 𐊡 𐌁 Ƅ Ь Ꮟ ᑲ ᖯ",
  c: "🝌 𑣲 𑣩 Ϲ Ⲥ С Ꮯ ꓚ 𐊢 𐌂 𐐕 𐔜 ᴄ ϲ ⲥ с ꮯ 𐐽",
  d: "Ꭰ ᗞ ᗪ ꓓ ԁ Ꮷ ᑯ ꓒ",
  e: "⋿ Ε Е ⴹ Ꭼ ꓰ 𑢦 𑢮 𐊆 ℮ ꬲ е ҽ",
  f: "Ꞙ Ϝ ᖴ ꓝ 𑣂 𑢢 𐊇 𐊥 𐔥 ꬵ ꞙ ſ ẝ ք",
  g: "Ԍ Ꮐ Ᏻ ꓖ ɡ ᶃ ƍ ց",
  h: "Η Ⲏ Н Ꮋ ᕼ ꓧ 𐋏 һ հ Ꮒ",
  i: "Ι Ⲓ І ꓲ ᛁ 𐌉 ⍳ ı ɪ ɩ ι і ӏ ꙇ ꭵ Ꭵ 𑣃",
  j: "Ʝ Ϳ Ј Ꭻ ᒍ ꓙ ϳ ј",
  k: "Κ Ⲕ К Ꮶ ᛕ ꓗ 𐔘",
  l: "Ⳑ Ꮮ ᒪ ꓡ 𖼖 𑢣 𑢲 𐐛 𐔦 ׀ ∣ ⏽ ￨ Ɩ ǀ Ӏ ו ן ا ߊ ⵏ 𐌠 𐊊",
  m: "Μ Ϻ Ⲙ М Ꮇ ᗰ ᛖ ꓟ 𐊰 𐌑",
  n: "Ν Ⲛ ꓠ 𐔓 ո ռ",
  o: "߀ ০ ୦ 〇 𑓐 𑣠 Ο Ⲟ О Օ ⵔ ዐ ଠ 𐓂 ꓳ 𑢵 𐊒 𐊫 𐐄 𐔖 ᴏ ᴑ ꬽ ο σ ⲟ о ჿ օ ס ه ഠ ဝ 𐓪 𑣈 𑣗 𐐬",
  p: "Ρ Ⲣ Р Ꮲ ᑭ ꓑ 𐊕 ⍴ ρ ϱ ⲣ р",
  q: "ⵕ ԛ գ զ",
  r: "Ʀ Ꭱ Ꮢ 𐒴 ᖇ ꓣ 𖼵 ꭇ ꭈ ᴦ ⲅ г ꮁ",
  s: "Ѕ Տ Ꮥ Ꮪ ꓢ 𖼺 𐊖 𐐠 ꜱ ƽ ѕ ꮪ 𑣁 𐑈",
  t: "⊤ ⟙ 🝨 Τ Ⲧ Т Ꭲ ꓔ 𖼊 𑢼 𐊗 𐊱 𐌕",
  u: "∪ ⋃ Ս ሀ 𐓎 ᑌ ꓴ 𖽂 𑢸 ꞟ ᴜ ꭎ ꭒ ʋ υ ս 𐓶 𑣘",
  v: "٧ ۷ Ѵ ⴸ Ꮩ ᐯ ꛟ ꓦ 𖼈 𑢠 𐔝 ∨ ⋁ ᴠ ν ѵ ט 𑜆 ꮩ 𑣀",
  w: "𑣯 𑣦 Ԝ Ꮃ Ꮤ ꓪ ɯ ᴡ ѡ ԝ ա 𑜊 𑜎 𑜏 ꮃ",
  x: "᙭ ╳ 𐌢 𑣬 Ꭓ Χ Ⲭ Х ⵝ ᚷ ꓫ 𐊐 𐊴 𐌗 𐔧 ᙮ × ⤫ ⤬ ⨯ х ᕁ ᕽ",
  y: "Υ ϒ Ⲩ У Ү Ꭹ Ꮍ ꓬ 𖽃 𑢤 𐊲 ɣ ᶌ ʏ ỿ ꭚ γ ℽ у ү ყ 𑣜",
  z: "𐋵 𑣥 Ζ Ꮓ ꓜ 𑢩 ᴢ ꮓ 𑣄",
};

let table: Map<string, string> | null = null;

/** Built on first use: most texts are ASCII and never need it. */
function lookAlikes(): Map<string, string> {
  if (!table) {
    table = new Map();
    for (const [letter, chars] of Object.entries(LOOK_ALIKES)) for (const char of chars.split(" ")) table.set(char, letter);
  }
  return table;
}

const NON_ASCII = /[^\x00-\x7F]/;
const NON_ASCII_CHARS = /[^\x00-\x7F]/gu;
/** The combining marks NFKD leaves on Latin, Greek and Cyrillic letters (a full `\p{M}` class costs a larger compile). */
const MARKS = /[\u0300-\u036F\u1AB0-\u1AFF\u1DC0-\u1DFF\u20D0-\u20FF\uFE20-\uFE2F]/g;
const MARK = /^[\u0300-\u036F\u1AB0-\u1AFF\u1DC0-\u1DFF\u20D0-\u20FF\uFE20-\uFE2F]$/;

/** One character: a listed look-alike, else its compatibility decomposition without marks, look-alikes replaced. */
function foldCharacter(char: string, map: ReadonlyMap<string, string>): string {
  const listed = map.get(char);
  if (listed !== undefined) return listed;
  // A combining mark typed after its letter (`i\u0308gnore`) goes like one NFKD splits off.
  if (MARK.test(char)) return "";
  const decomposed = char.normalize("NFKD");
  if (decomposed === char) return char;
  return decomposed.replace(MARKS, "").replace(NON_ASCII_CHARS, (part) => map.get(part) ?? part);
}

/**
 * The text as the Latin letters and tag punctuation it shows: look-alike letters of other scripts and look-alike
 * brackets and slashes replaced, compatibility forms folded (NFKD: fullwidth `Ｉｇｎｏｒｅ`, `𝐈𝐠𝐧𝐨𝐫𝐞`, ligatures, the
 * Kelvin sign) and combining marks dropped (`ïgnóre`). ASCII text is returned as is.
 */
export function foldConfusables(text: string): string {
  if (!NON_ASCII.test(text)) return text;
  const map = lookAlikes();
  return text.replace(NON_ASCII_CHARS, (char) => foldCharacter(char, map));
}
