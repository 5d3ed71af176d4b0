import { createHash } from "node:crypto";
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/**
 * Where bundles of worker entries go when the server runs from source: inside the server package's
 * node_modules, so the bundle's third-party imports resolve from there as the sources' do.
 */
const CACHE_DIR = new URL("../../../node_modules/.cache/parley-workers/", import.meta.url);

const bundles = new Map<string, Promise<URL>>();

/**
 * A worker thread's TypeScript entry (running from source: tests, `npm run dev`) bundled into one
 * JavaScript file the thread can load without a TypeScript loader, as build.mjs bundles it for
 * dist: our own packages (@parley/*) are bundled in, third-party packages stay imports. Bundled
 * once per process and entry; the file is named after its content, so processes running at once
 * share it and a changed source gets a new one.
 */
export function bundledWorker(entry: URL): Promise<URL> {
  let bundle = bundles.get(entry.href);
  if (!bundle) {
    bundle = bundleEntry(entry);
    // A failed bundle (a syntax error mid-edit) is tried again by the next thread, not cached.
    bundle.catch(() => bundles.delete(entry.href));
    bundles.set(entry.href, bundle);
  }
  return bundle;
}

async function bundleEntry(entry: URL): Promise<URL> {
  // esbuild is a development dependency: only a server running from source gets here.
  const { build } = await import("esbuild");
  const result = await build({
    entryPoints: [fileURLToPath(entry)],
    bundle: true,
    write: false,
    platform: "node",
    target: "node20",
    format: "esm",
    sourcemap: "inline",
    logLevel: "silent",
    plugins: [
      {
        name: "externalise-third-party",
        setup(b) {
          b.onResolve({ filter: /^[^./]/ }, (args) =>
            args.path.startsWith("@parley/") ? undefined : { path: args.path, external: true },
          );
        },
      },
    ],
  });
  const code = result.outputFiles[0]?.contents;
  if (!code) throw new Error(`bundling the worker ${entry.pathname} gave no output`);
  const name = `${createHash("sha256").update(code).digest("hex").slice(0, 16)}.mjs`;
  mkdirSync(CACHE_DIR, { recursive: true });
  const file = new URL(name, CACHE_DIR);
  // Written aside and renamed, so a thread of another process never loads a half-written file.
  const partial = new URL(`${name}.${process.pid}.partial`, CACHE_DIR);
  writeFileSync(partial, code);
  renameSync(partial, file);
  return file;
}
