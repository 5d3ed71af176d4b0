// Pre-renders pages people open first into the HTML the server sends for them (plugins/web-app.ts
// serves dist/<page>.html at that path): the page's markup inside #root and the emotion rules it
// uses in the head, so the first paint already shows the page instead of a spinner and the largest
// text needs no script. A visitor's page (the sign-in page) is #root's content, which boot.tsx
// hydrates (or draws afresh for a visitor whose preferences or stored session would make the page
// look different). A signed-in frame sits in #root hidden beside the HTML's spinner: main.tsx shows
// it to a user with a session and the default look, and the app later draws the page over it;
// anyone else sees the spinner, never a signed-in layout.
import { readFile, rm, writeFile } from "node:fs/promises";
import path from "node:path";
import { pathToFileURL } from "node:url";
import react from "@vitejs/plugin-react";
import { build, type Plugin } from "vite";
import type { PrerenderedFor } from "../src/lib/prerendered-page.ts";

export type { PrerenderedFor };

/** The file a page's HTML is written to: its path, an id segment (`:workflowId`) as `[workflowId]`. */
export const pageHtmlFile = (url: string) => `${url.replace(/^\//, "").replace(/:(\w+)/g, "[$1]")}.html`;

interface Renderer {
  renderPage(url: string, drawnFor: PrerenderedFor): Promise<{ html: string; styles: string }>;
}

/** In the server build, `react-router` means src/prerender/memory-router.ts (which re-exports the real one). */
function routerInMemory(root: string): Plugin {
  const shim = path.join(root, "src/prerender/memory-router.ts");
  return {
    name: "parley:router-in-memory",
    enforce: "pre",
    async resolveId(source, importer) {
      if (source !== "react-router" || importer === shim) return null;
      return shim;
    },
  };
}

/** What the app reads from the browser while rendering: an empty localStorage (no session, no preferences). */
function installBrowserStandIns() {
  const items = new Map<string, string>();
  const storage: Pick<Storage, "getItem" | "setItem" | "removeItem"> = {
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, String(value)),
    removeItem: (key) => void items.delete(key),
  };
  Object.assign(globalThis, { localStorage: storage });
}

/** The server build of src/prerender/render-page.tsx, into outDir; React stays Node's own. */
async function buildRenderer(root: string, outDir: string): Promise<Renderer> {
  await build({
    configFile: false,
    root,
    mode: "production",
    logLevel: "warn",
    plugins: [routerInMemory(root), react()],
    ssr: { noExternal: true, external: ["react", "react-dom"] },
    build: {
      ssr: "src/prerender/render-page.tsx",
      outDir,
      emptyOutDir: true,
      minify: false,
      sourcemap: false,
      rolldownOptions: { output: { entryFileNames: "render-page.mjs" } },
    },
  });
  return (await import(pathToFileURL(path.join(outDir, "render-page.mjs")).href)) as Renderer;
}

/** Writes each page's markup and styles into its dist/<page>.html (written before by the build). */
export async function prerenderPages(root: string, outDir: string, pages: Record<string, PrerenderedFor>) {
  if (Object.keys(pages).length === 0) return;
  // React and emotion pick their production builds from NODE_ENV, as the browser bundle did.
  process.env.NODE_ENV = "production";
  installBrowserStandIns();
  // A scratch folder, removed afterwards: the pages' lazy chunks are read from it while rendering.
  const scratch = path.join(root, "node_modules/.parley-prerender");
  try {
    const renderer = await buildRenderer(root, scratch);
    for (const [url, drawnFor] of Object.entries(pages)) await prerenderPage(renderer, outDir, url, drawnFor);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}

async function prerenderPage(renderer: Renderer, outDir: string, url: string, drawnFor: PrerenderedFor) {
  const file = path.join(outDir, pageHtmlFile(url));
  const { html, styles } = await renderer.renderPage(url, drawnFor);
  const page = await readFile(file, "utf8");
  const rootTag = '<div id="root">';
  const rootStart = page.indexOf(rootTag);
  const bodyEnd = page.lastIndexOf("</body>");
  if (rootStart < 0 || bodyEnd < 0) throw new Error(`${file} has no <div id="root"> to fill`);
  // #root is the body's last element (Vite puts the entry script in the head): its content runs
  // to the last </div> before </body>, and is the HTML's spinner.
  const rootEnd = page.lastIndexOf("</div>", bodyEnd);
  const spinner = page.slice(rootStart + rootTag.length, rootEnd).trim();
  const content = drawnFor === "visitor" ? html : `${spinner}<div data-frame hidden>${html}</div>`;
  const filled = `${page.slice(0, rootStart)}<div id="root" data-prerendered="${url}" data-session="${drawnFor}">${content}</div>\n  ${page.slice(bodyEnd)}`;
  await writeFile(file, filled.replace("</head>", `${styles}\n  </head>`));
}
