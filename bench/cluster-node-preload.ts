// Loaded into each server process of the cluster bench (NODE_OPTIONS="--import tsx --import <this>"):
// registers a resolve hook that hands the engine's "local" vendor folder over to
// cluster-instant-vendor.ts, so assistants on the key-free local providers get instant doubles.
// Only the source entry can be redirected this way: dist/main.js bundles the vendor folders.
import { register } from "node:module";

const target = new URL("./cluster-instant-vendor.ts", import.meta.url).href;
// The hook runs on the loader thread, which has no TypeScript: it is plain JavaScript, as data.
const hooks = `
export async function resolve(specifier, context, next) {
  if (specifier === "./local/index.ts" && context.parentURL?.endsWith("/providers/load-vendor.ts")) {
    return next(${JSON.stringify(target)}, context);
  }
  return next(specifier, context);
}`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`);
