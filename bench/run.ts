// `npm run bench`: runs every *.bench.ts in this folder, prints each one's table and writes the
// figures to bench/results/<name>.json.
import { mkdirSync, readdirSync, writeFileSync } from "node:fs";
import path from "node:path";

export interface BenchResult {
  name: string;
  rows: Record<string, string | number>[];
}

const dir = import.meta.dirname;
const only = process.argv.slice(2);
const files = readdirSync(dir)
  .filter((f) => f.endsWith(".bench.ts"))
  .filter((f) => only.length === 0 || only.some((o) => f.includes(o)));
mkdirSync(path.join(dir, "results"), { recursive: true });
for (const file of files) {
  const mod = (await import(path.join(dir, file))) as { run(): Promise<BenchResult> };
  console.log(`\n## ${file}`);
  const result = await mod.run();
  console.table(result.rows);
  writeFileSync(path.join(dir, "results", `${result.name}.json`), `${JSON.stringify(result, null, 2)}\n`);
}
