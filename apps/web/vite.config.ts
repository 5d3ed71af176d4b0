import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin } from "vite";
import { type PrerenderedFor, pageHtmlFile, prerenderPages } from "./build/prerender-pages.ts";

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);
// Fonts and images are compressed formats already; sourcemaps are only fetched by developer tools.
const COMPRESSIBLE = /\.(?:js|mjs|css|html|svg|json|txt|webmanifest)$/;

/** Writes `<file>.br` and `<file>.gz` beside every compressible file under outDir, at the highest levels. */
async function precompress(outDir: string) {
  const files = (await readdir(outDir, { recursive: true })).filter(
    (file) => COMPRESSIBLE.test(file) && !file.startsWith("."),
  );
  await Promise.all(
    files.map(async (file) => {
      const raw = await readFile(path.join(outDir, file));
      const [br, gz] = await Promise.all([
        brotli(raw, {
          params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length },
        }),
        gzipped(raw, { level: 9 }),
      ]);
      // A "compressed" copy larger than the file (tiny files) would only cost bytes, except for
      // scripts: every script is sent compressed, so none reads as a missed compression, at the
      // price of a few bytes on the rare chunk of a hundred.
      const always = /\.m?js$/.test(file);
      if (always || br.length < raw.length) await writeFile(path.join(outDir, `${file}.br`), br);
      if (always || gz.length < raw.length) await writeFile(path.join(outDir, `${file}.gz`), gz);
    }),
  );
}

interface ManifestChunk {
  file: string;
  imports?: string[];
}

/**
 * Writes `<url>.html` for a page the router loads lazily: index.html plus modulepreload hints for
 * the chunks of that page's modules, so the browser fetches them with the entry instead of after it
 * has run.
 * The server sends it for that exact path, or any path of its pattern when the page's path has an
 * id (plugins/web-app.ts); every other path gets index.html.
 */
async function writePageHtml(outDir: string, url: string, modules: string[]) {
  const manifest = JSON.parse(await readFile(path.join(outDir, ".vite/manifest.json"), "utf8")) as Record<
    string,
    ManifestChunk
  >;
  const html = await readFile(path.join(outDir, "index.html"), "utf8");
  const files = new Set<string>();
  const visit = (key: string) => {
    const chunk = manifest[key];
    if (!chunk) throw new Error(`${key} is not in the build manifest`);
    if (files.has(chunk.file)) return;
    files.add(chunk.file);
    for (const dep of chunk.imports ?? []) visit(dep);
  };
  for (const key of modules) visit(key);
  const hints = [...files]
    .filter((file) => !html.includes(`/${file}"`))
    .map((file) => `<link rel="modulepreload" fetchpriority="low" crossorigin href="/${file}">`);
  const target = path.join(outDir, pageHtmlFile(url));
  await mkdir(path.dirname(target), { recursive: true });
  await writeFile(target, html.replace("</head>", `  ${hints.join("\n    ")}\n  </head>`));
}

/**
 * Moves an HTML file's modulepreload hints into `<template id="app-modules">`, which main.tsx
 * copies into the head once the page has painted. Hints in the head proper are fetched while the
 * HTML is parsed, alongside the font and ahead of the first paint: on a slow link the scripts
 * (hundreds of kilobytes) share the bandwidth with what that paint needs, and the page holds
 * (pre-rendered, or the spinner) needs none of them. A frame later they are still fetched
 * together, rather than one chunk's imports after another's.
 */
async function deferModulePreloads(file: string) {
  const html = await readFile(file, "utf8");
  const hints = html.match(/^\s*<link rel="modulepreload"[^>]*>\n?/gm) ?? [];
  if (hints.length === 0) return;
  let deferred = hints.reduce((page, hint) => page.replace(hint, ""), html);
  const template = `    <template id="app-modules">${hints.map((hint) => hint.trim()).join("")}</template>\n`;
  deferred = deferred.replace("  </head>", `${template}  </head>`);
  await writeFile(file, deferred);
}

/**
 * After the build: the pages' own HTML, the pre-rendered pages' markup in theirs, the script hints
 * deferred past the first paint, then brotli and gzip copies of everything the server sends.
 */
function postBuild(pages: Record<string, string[]>, prerendered: Record<string, PrerenderedFor>): Plugin {
  let outDir = "";
  let root = "";
  return {
    name: "parley:post-build",
    apply: "build",
    configResolved(config) {
      root = config.root;
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      // index.html first: every other page's HTML starts from it.
      for (const [url, modules] of Object.entries(pages)) await writePageHtml(outDir, url, modules);
      await prerenderPages(root, outDir, prerendered);
      const html = (await readdir(outDir, { recursive: true })).filter((file) => file.endsWith(".html"));
      await Promise.all(html.map((file) => deferModulePreloads(path.join(outDir, file))));
      await precompress(outDir);
    },
  };
}

/**
 * Marks the app's module scripts and their preloads low priority. Module scripts never hold up the
 * first paint (they run after parsing; the HTML's own spinner shows meanwhile), but Chrome fetches
 * them at high priority, and Lighthouse's simulation takes every high-priority script that arrives
 * before the first paint as render-blocking, charging the whole first load to First Contentful
 * Paint. Low priority says what they are. The cost: while the preloaded font (high) is in flight
 * Chrome may start some of them a few tens of milliseconds later; on a slow link the bytes, not
 * the order of the requests, bound the first load.
 */
function lowPriorityScripts(): Plugin {
  return {
    name: "parley:low-priority-scripts",
    apply: "build",
    transformIndexHtml: {
      order: "post",
      handler: (html) =>
        html.replace(
          /<(script type="module"|link rel="modulepreload") crossorigin/g,
          '<$1 fetchpriority="low" crossorigin',
        ),
    },
  };
}

/**
 * Preloads the self-hosted Latin font face (declared in index.html) so text is drawn in it at
 * first paint instead of swapping in later; the file name carries Vite's hash, known only here.
 */
function preloadFont(fileName: string): Plugin {
  return {
    name: "parley:preload-font",
    apply: "build",
    transformIndexHtml: {
      order: "post",
      handler(_html, { bundle }) {
        const font = Object.values(bundle ?? {}).find(
          (output) => output.type === "asset" && output.names.includes(fileName),
        );
        if (!font) throw new Error(`${fileName} is not in the build: index.html no longer declares it`);
        return [
          {
            tag: "link",
            attrs: { rel: "preload", href: `/${font.fileName}`, as: "font", type: "font/woff2", crossorigin: "" },
            injectTo: "head",
          },
        ];
      },
    },
  };
}

/**
 * The modules a signed-in page's HTML names: the session restore's schemas, the layout, the page
 * and its English strings (and the form messages every signed-in page's dialogs use).
 */
function signedInPage(page: string, strings: string): string[] {
  return [
    "src/features/auth/api/session-schemas.ts",
    "src/app/app-layout.tsx",
    page,
    `src/features/${strings}/locales/en.json`,
    "src/components/form-messages/locales/en.json",
  ];
}

export default defineConfig({
  plugins: [
    react(),
    preloadFont("inter-latin-wght-normal.woff2"),
    lowPriorityScripts(),
    // Every main page gets HTML of its own that names its code and English strings, so the browser
    // fetches them all at once rather than one import after another: the sign-in page (every
    // visitor's first), the landing page after it, and the pages of the sidebar a user works in. A
    // signed-in page also names the schemas the session restore checks /users/me with.
    postBuild(
      {
        // Every page needs the app itself, which the entry imports only after the first paint;
        // index.html first, since every other page's HTML starts from it.
        "/index": ["src/boot.tsx"],
        "/auth/login": [
          "src/features/auth/pages/login-page.tsx",
          "src/features/auth/locales/en.json",
          "src/components/form-messages/locales/en.json",
        ],
        "/home": signedInPage("src/features/home/pages/home-page.tsx", "home"),
        "/assistants": signedInPage("src/features/assistants/pages/assistants-page.tsx", "assistants"),
        "/knowledge-base": signedInPage("src/features/knowledge-base/pages/knowledge-base-page.tsx", "knowledge-base"),
        "/workflows/:workflowId": signedInPage("src/features/workflows/pages/workflow-builder-page.tsx", "workflows"),
        "/billing": signedInPage("src/features/billing/pages/billing-page.tsx", "billing"),
        "/call-logs": signedInPage("src/features/call-logs/pages/call-logs-page.tsx", "call-logs"),
        "/phone-numbers": signedInPage("src/features/phone-numbers/pages/phone-numbers-page.tsx", "phone-numbers"),
      },
      // The sign-in page as every visitor sees it; the signed-in pages as their frame (the layout
      // and the page's heading, which a returning user sees while the session restores and the
      // page's code arrives).
      {
        "/auth/login": "visitor",
        "/assistants": "signed-in",
        "/knowledge-base": "signed-in",
        "/workflows/:workflowId": "signed-in",
        "/billing": "signed-in",
        "/call-logs": "signed-in",
        "/phone-numbers": "signed-in",
      },
    ),
  ],
  server: {
    port: 5173,
    proxy: { "/api": "http://127.0.0.1:3000", "/metrics": "http://127.0.0.1:3000" },
  },
  build: {
    outDir: "dist",
    sourcemap: true,
    manifest: true,
    chunkSizeWarningLimit: 800,
    rolldownOptions: {
      output: {
        codeSplitting: {
          // zod's global settings (lib/zod-without-eval.ts) travel in zod's own chunk, so they are
          // in force before any chunk that builds a schema runs — whatever chunk that schema is in.
          groups: [{ name: "zod", test: /[\\/]node_modules[\\/]zod[\\/]|[\\/]src[\\/]lib[\\/]zod-without-eval\.ts$/ }],
        },
      },
    },
  },
});
