// The call widget's embed script as a visitor of a customer's site downloads it: the one bundle
// packages/widget builds, raw and as the gzip and brotli copies the server sends. Every site that
// embeds a widget pays these bytes on its pages, so it has a budget of its own (issue 16).
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { buildWidget } from "../packages/widget/build.mjs";
import type { BenchResult } from "./run.ts";

const BUDGET_GZIP_KB = 15;
const kb = (bytes: number) => +(bytes / 1024).toFixed(1);

export async function run(): Promise<BenchResult> {
  const sizes = await buildWidget(mkdtempSync(path.join(tmpdir(), "parley-widget-bench-")));
  const gzipKb = kb(sizes.gzip);
  return {
    name: "widget-size",
    rows: [
      {
        file: "widget.js",
        raw_kb: kb(sizes.raw),
        gzip_kb: gzipKb,
        brotli_kb: kb(sizes.brotli),
        budget_gzip_kb: BUDGET_GZIP_KB,
        within: gzipKb <= BUDGET_GZIP_KB ? "yes" : "NO",
      },
    ],
  };
}
