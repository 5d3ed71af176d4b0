// The JavaScript a browser must load to show /auth/login: the entry chunk, the login page's lazy
// chunk, and every chunk they import statically — gzipped, as served. Builds the web app first.
import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import type { BenchResult } from "./run.ts";

interface ManifestEntry {
  file: string;
  isEntry?: boolean;
  imports?: string[];
}

const web = path.resolve(import.meta.dirname, "../apps/web");

function closure(manifest: Record<string, ManifestEntry>, keys: string[]): Set<string> {
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    for (const dep of manifest[key]?.imports ?? []) visit(dep);
  };
  for (const key of keys) visit(key);
  return seen;
}

export async function run(): Promise<BenchResult> {
  execFileSync("npm", ["run", "build", "-w", "@parley/web"], { cwd: path.resolve(web, "../.."), stdio: "ignore" });
  const manifest = JSON.parse(readFileSync(path.join(web, "dist/.vite/manifest.json"), "utf8")) as Record<
    string,
    ManifestEntry
  >;
  const entry = Object.keys(manifest).find((k) => manifest[k]?.isEntry);
  const login = Object.keys(manifest).find((k) => k.endsWith("login-page.tsx"));
  if (!entry || !login) throw new Error("entry or login page chunk missing from the build manifest");
  const files = [...closure(manifest, [entry, login])]
    .map((k) => manifest[k]?.file)
    .filter((f): f is string => Boolean(f));
  const sizes = files.map((file) => {
    const bytes = readFileSync(path.join(web, "dist", file));
    return { file, raw_kb: +(bytes.length / 1024).toFixed(1), gzip_kb: +(gzipSync(bytes).length / 1024).toFixed(1) };
  });
  const total = sizes.reduce((sum, s) => sum + s.gzip_kb, 0);
  return {
    name: "web-bundle",
    rows: [
      ...sizes,
      { file: "TOTAL initial JS for /auth/login (target < 250 KB gzip)", raw_kb: 0, gzip_kb: +total.toFixed(1) },
    ],
  };
}
