// Bundles the server into dist/main.js. Our own workspace packages (TypeScript sources) are
// bundled in; third-party packages stay external and load from node_modules.
import { build } from "esbuild";

await build({
  entryPoints: ["src/main.ts"],
  outfile: "dist/main.js",
  bundle: true,
  platform: "node",
  target: "node20",
  format: "esm",
  sourcemap: true,
  packages: "external",
  plugins: [
    {
      name: "bundle-workspace-packages",
      setup(b) {
        b.onResolve({ filter: /^@parley\// }, async (args) => {
          if (args.pluginData === "inner") return undefined;
          const result = await b.resolve(args.path, {
            kind: args.kind,
            resolveDir: args.resolveDir,
            pluginData: "inner",
          });
          return { path: result.path, external: false };
        });
      },
    },
  ],
  banner: { js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);" },
});
