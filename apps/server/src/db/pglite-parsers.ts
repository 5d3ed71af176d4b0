import { type ParserOptions, type QueryOptions, type Transaction, types } from "@electric-sql/pglite";

/**
 * The types drizzle's PGlite driver reads as text (drizzle-orm/pglite/session.js): timestamps,
 * dates, intervals and their arrays, and numeric[]. It hands these parsers to every query, and
 * PGlite copies its whole parser table (over 300 types) with them into a fresh object before
 * reading each result: a sixth of a simple request's CPU (issue 35). The server's PGlite is given
 * the same parsers once (`parsers` in its options), and queries that carry no others drop theirs.
 */
const DRIZZLE_TEXT_TYPES = [
  types.TIMESTAMP,
  types.TIMESTAMPTZ,
  types.INTERVAL,
  types.DATE,
  1231, // numeric[]
  1115, // timestamp[]
  1185, // timestamptz[]
  1187, // interval[]
  1182, // date[]
];

const asText = (value: string) => value;

/** The parsers the PGlite instance is created with. */
export const DRIZZLE_PARSERS: ParserOptions = Object.fromEntries(DRIZZLE_TEXT_TYPES.map((type) => [type, asText]));

/**
 * drizzle's options are one object per prepared query; each is checked once. A query whose
 * parsers the instance does not already apply (another driver version, a caller's own) keeps them.
 */
const covered = new WeakMap<ParserOptions, boolean>();

function coveredByInstance(parsers: ParserOptions): boolean {
  let known = covered.get(parsers);
  if (known === undefined) {
    known = Object.keys(parsers).every((type) => DRIZZLE_TEXT_TYPES.includes(Number(type)));
    covered.set(parsers, known);
  }
  return known;
}

/** The options without the parsers the instance already applies. */
export function withoutInstanceParsers(options: QueryOptions | undefined): QueryOptions | undefined {
  if (!options?.parsers || !coveredByInstance(options.parsers)) return options;
  const { parsers: _applied, ...rest } = options;
  return rest;
}

/** A transaction whose queries drop the parsers the instance already applies, like the instance's own. */
export function transactionWithoutInstanceParsers(tx: Transaction): Transaction {
  return new Proxy(tx, {
    get(target, property) {
      if (property === "query") {
        return (query: string, params?: unknown[], options?: QueryOptions) =>
          target.query(query, params, withoutInstanceParsers(options));
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
