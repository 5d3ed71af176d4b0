/**
 * Points a vendor URL at another origin while keeping its path and query, so tests can aim an
 * adapter at a local server and still check the exact path the vendor would have received.
 */
export function withOrigin(url: string, origin?: string): string {
  if (!origin) return url;
  const parsed = new URL(url);
  const path = parsed.pathname === "/" ? "" : parsed.pathname;
  return `${origin.replace(/\/+$/, "")}${path}${parsed.search}`;
}

/** Joins an API root and a path without doubling or losing the slash between them. */
export function joinUrl(root: string, path: string): string {
  return `${root.replace(/\/+$/, "")}/${path.replace(/^\/+/, "")}`;
}

/** `defaultOrigin` + `path`, or `baseUrl` + `path` when a base URL overrides the vendor host. */
export function vendorUrl(defaultOrigin: string, path: string, baseUrl?: string): URL {
  const origin = (baseUrl ?? defaultOrigin).replace(/\/+$/, "");
  return new URL(`${origin}${path}`);
}
