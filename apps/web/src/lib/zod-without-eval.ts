import { z } from "zod";

/**
 * Zod compiles object parsers with `new Function` unless told not to. The app's CSP forbids eval
 * (script-src 'self'), so that could never work here, and zod's probe for it makes Chrome record a
 * CSP violation on every page. zod is not on the first load (the sign-in page never fetches it), so
 * the modules that bring zod in import this first; the build puts it in zod's own chunk
 * (vite.config.ts), which runs it before any chunk that builds a schema, whichever chunk that is.
 */
z.config({ jitless: true });
