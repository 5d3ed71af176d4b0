/**
 * The SQLSTATE of a database error, possibly wrapped (Drizzle puts the driver's error in `cause`).
 * Both drivers' errors carry a `severity`, which tells them from Node's own codes such as EPIPE.
 */
export function sqlStateOf(error: unknown): string | undefined {
  for (let e: unknown = error, depth = 0; e && typeof e === "object" && depth < 5; depth += 1) {
    if ("severity" in e && "code" in e && typeof e.code === "string" && /^[0-9A-Z]{5}$/.test(e.code)) return e.code;
    e = "cause" in e ? e.cause : undefined;
  }
  return undefined;
}

/** True when a database error is a unique-constraint violation (SQLSTATE 23505). */
export function isUniqueViolation(error: unknown): boolean {
  return sqlStateOf(error) === "23505";
}
