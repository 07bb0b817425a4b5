/**
 * The page, its script and its styles, bundled into the executable at build time: `bun build --compile` turns this
 * HTML import into a manifest of embedded files (the HTML, a script chunk, a stylesheet, the icon). They are read
 * once when the dashboard starts and served by path; nothing is fetched from anywhere else.
 */
import { basename } from "node:path";
import page from "./page/index.html";

export type Asset = { body: Uint8Array; contentType: string };

/** URL path → embedded file. Throws when this is not a compiled binary (run `npm run build`). */
export async function loadAssets(): Promise<Map<string, Asset>> {
  const files = page.files;
  if (!files || files.length === 0) throw new Error("The dashboard's page is bundled at build time: run the compiled binary (npm run build, then dist/aioson dashboard).");
  const assets = new Map<string, Asset>();
  for (const file of files) {
    const asset = { body: new Uint8Array(await Bun.file(file.path).arrayBuffer()), contentType: file.headers["content-type"] };
    assets.set(file.path === page.index ? "/" : `/${basename(file.path)}`, asset);
  }
  if (!assets.has("/")) throw new Error("The dashboard's bundle has no page.");
  return assets;
}
