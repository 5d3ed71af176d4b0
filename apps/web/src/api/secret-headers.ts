/**
 * The API's rule for header maps that carry tokens (functions, tool servers): values come back
 * masked, and one sent back masked keeps the stored value, but only on the host it was saved with.
 */

interface HeaderTarget {
  url: string;
  headers: Record<string, string>;
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

/**
 * Whether saving would be refused: the URL moves to another host while a header still holds the
 * masked value it was shown with, so the stored value would have to follow it there.
 */
export function headersNeedRetyping(saved: HeaderTarget | null, next: HeaderTarget): boolean {
  if (!saved || originOf(saved.url) === originOf(next.url)) return false;
  return Object.entries(next.headers).some(([name, value]) => saved.headers[name] === value);
}
