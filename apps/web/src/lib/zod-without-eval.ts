import { z } from "zod";

/**
 * Zod compiles object parsers with `new Function` unless told not to. The app's CSP forbids eval
 * (script-src 'self'), so that could never work here, and zod's probe for it makes Chrome record a
 * CSP violation on every page. Imported first by main.tsx, before any schema is built.
 */
z.config({ jitless: true });
