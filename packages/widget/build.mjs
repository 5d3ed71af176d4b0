// Bundles the call widget's embed script (src/embed.ts) into one minified file for browsers, with
// the .gz and .br copies the server sends. The server's build calls this to put it in its dist.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";
import { build } from "esbuild";

const here = path.dirname(fileURLToPath(import.meta.url));

/** Writes widget.js, widget.js.gz and widget.js.br into `outDir`; returns their sizes in bytes. */
export async function buildWidget(outDir) {
  mkdirSync(outDir, { recursive: true });
  const outfile = path.join(outDir, "widget.js");
  await build({
    entryPoints: [path.join(here, "src/embed.ts")],
    outfile,
    bundle: true,
    minify: true,
    format: "iife",
    // Browsers of the last few years: no transpiling of classes, async or optional chaining.
    target: ["es2020", "chrome90", "firefox90", "safari15"],
    legalComments: "none",
    logLevel: "warning",
  });
  const raw = readFileSync(outfile);
  const gzip = gzipSync(raw, { level: 9 });
  const brotli = brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } });
  writeFileSync(`${outfile}.gz`, gzip);
  writeFileSync(`${outfile}.br`, brotli);
  return { raw: raw.length, gzip: gzip.length, brotli: brotli.length };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const sizes = await buildWidget(path.resolve(here, "../../apps/server/dist/widget"));
  console.log(`widget.js: ${sizes.raw} B, ${sizes.gzip} B gzip, ${sizes.brotli} B brotli`);
}
