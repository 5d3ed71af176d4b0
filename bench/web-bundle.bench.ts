// The JavaScript a browser must load before each route can render: the entry chunk, the route's
// lazy chunks (the signed-in layout, then the page) and every chunk they import statically — as
// bytes on the wire: the .gz and .br copies the build writes and the server sends. Builds the web
// app first.
import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { brotliCompressSync, gzipSync } from "node:zlib";
import type { BenchResult } from "./run.ts";

interface ManifestEntry {
  file: string;
  isEntry?: boolean;
  imports?: string[];
}

const web = path.resolve(import.meta.dirname, "../apps/web");
const dist = path.join(web, "dist");
const LOGIN_TARGET_GZIP_KB = 200;
/** The app proper, which the tiny entry (src/main.tsx) imports after the first paint. */
const APP = "src/boot.tsx";

/**
 * What every signed-in page loads before its own code: the schemas the session restore checks
 * /users/me and /workspaces with (a chunk of their own, off the sign-in page), then the layout.
 */
const signedIn = ["src/features/auth/api/session-schemas.ts", "src/app/app-layout.tsx"];
/** Each route and the lazy modules (manifest keys) the router loads for it, outermost first. */
const ROUTES: Record<string, string[]> = {
  "/auth/login": ["src/features/auth/pages/login-page.tsx"],
  "/home": [...signedIn, "src/features/home/pages/home-page.tsx"],
  "/assistants": [...signedIn, "src/features/assistants/pages/assistants-page.tsx"],
  "/assistants/:id": [...signedIn, "src/app/routes/assistant-detail-route.tsx"],
  "/knowledge-base": [...signedIn, "src/features/knowledge-base/pages/knowledge-base-page.tsx"],
  "/workflows/:id": [...signedIn, "src/features/workflows/pages/workflow-builder-page.tsx"],
  "/billing": [...signedIn, "src/features/billing/pages/billing-page.tsx"],
  "/call-logs": [...signedIn, "src/features/call-logs/pages/call-logs-page.tsx"],
  "/phone-numbers": [...signedIn, "src/features/phone-numbers/pages/phone-numbers-page.tsx"],
  "/voice-lab": [...signedIn, "src/features/voice-lab/pages/voice-lab-page.tsx"],
  "/admin": [...signedIn, "src/features/admin/pages/admin-dashboard-page.tsx"],
};

function closure(manifest: Record<string, ManifestEntry>, keys: string[]): Set<string> {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    if (!manifest[key]) throw new Error(`${key} is not in the build manifest: update ROUTES`);
    seen.add(key);
    for (const dep of manifest[key].imports ?? []) visit(dep);
  };
  for (const key of keys) visit(key);
  return seen;
}

/** The served bytes of one built file: its precompressed copy, or (if the build wrote none) computed. */
function wireBytes(file: string, ext: ".gz" | ".br", raw: Buffer): number {
  const copy = path.join(dist, file + ext);
  if (existsSync(copy)) return readFileSync(copy).length;
  return (ext === ".gz" ? gzipSync(raw, { level: 9 }) : brotliCompressSync(raw)).length;
}

const kb = (bytes: number) => +(bytes / 1024).toFixed(1);

export async function run(): Promise<BenchResult> {
  execFileSync("npm", ["run", "build", "-w", "@parley/web"], { cwd: path.resolve(web, "../.."), stdio: "ignore" });
  const manifest = JSON.parse(readFileSync(path.join(dist, ".vite/manifest.json"), "utf8")) as Record<
    string,
    ManifestEntry
  >;
  const entry = Object.keys(manifest).find((k) => manifest[k]?.isEntry);
  if (!entry) throw new Error("no entry chunk in the build manifest");
  const rows = Object.entries(ROUTES).map(([route, keys]) => {
    // The entry starts the app (src/boot.tsx) once the HTML has painted: every route loads both.
    const files = [...closure(manifest, [entry, APP, ...keys])].map((k) => manifest[k]?.file ?? "");
    let raw = 0;
    let gzip = 0;
    let brotli = 0;
    for (const file of files) {
      const bytes = readFileSync(path.join(dist, file));
      raw += bytes.length;
      gzip += wireBytes(file, ".gz", bytes);
      brotli += wireBytes(file, ".br", bytes);
    }
    return { route, chunks: files.length, raw_kb: kb(raw), gzip_kb: kb(gzip), brotli_kb: kb(brotli) };
  });
  // The sign-in page is what every visitor downloads first: it carries the budget (issue 18).
  return {
    name: "web-bundle",
    rows: rows.map((row) =>
      row.route === "/auth/login"
        ? { ...row, budget_gzip_kb: LOGIN_TARGET_GZIP_KB, within: row.gzip_kb <= LOGIN_TARGET_GZIP_KB ? "yes" : "NO" }
        : row,
    ),
  };
}
