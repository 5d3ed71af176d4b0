// Bundles the server into dist/main.js, and beside it dist/extract-worker.js, the thread that reads
// uploaded documents under a memory limit. Our own workspace packages (TypeScript sources) are
// bundled in; third-party packages stay external and load from node_modules.
import { build } from "esbuild";
import { buildWidget } from "../../packages/widget/build.mjs";

await build({
  entryPoints: { main: "src/main.ts", "extract-worker": "src/modules/knowledge-base/extract-worker.ts" },
  outdir: "dist",
  bundle: true,
  platform: "node",
  target: "node20",
  format: "esm",
  sourcemap: true,
  logLevel: "warning",
  plugins: [
    {
      name: "externalise-third-party",
      setup(b) {
        // A bare specifier that is not one of ours (@parley/*) stays an import at run time.
        b.onResolve({ filter: /^[^./]/ }, (args) =>
          args.path.startsWith("@parley/") ? undefined : { path: args.path, external: true },
        );
      },
    },
  ],
});

// The call widget's embed script, served by the server from dist/widget (its own small bundle).
await buildWidget("dist/widget");
