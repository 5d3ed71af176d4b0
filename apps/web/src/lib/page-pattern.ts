/**
 * Whether `pathname` is a page of `pattern`, a router path whose `:name` segments stand for any one
 * segment ("/workflows/:workflowId"). The build names a pre-rendered page and its HTML by such a
 * pattern when the page has an id in its path; the entry (main.tsx) checks the page it was
 * opened at against it. Kept free of the router, which the entry does not load before it paints.
 */
export function pathMatches(pattern: string, pathname: string): boolean {
  const want = pattern.split("/");
  const have = pathname.split("/");
  if (want.length !== have.length) return false;
  return want.every((segment, i) => (segment.startsWith(":") ? (have[i] ?? "") !== "" : segment === have[i]));
}
