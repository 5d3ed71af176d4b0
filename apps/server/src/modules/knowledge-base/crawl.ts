import { CRAWL_LIMITS, type CrawlIntensity } from "@parley/contract";
import robotsModule from "robots-parser";
import { crawlFailureReason, PageRefusedError } from "./crawl-failure.ts";
import { readablePage } from "./extract/html.ts";
import { ExtractionError, type Section } from "./extract/index.ts";

// The package's types declare an ES default export, but it is a CommonJS function export: under
// NodeNext the default import is the function itself.
const robotsParser = robotsModule as unknown as typeof robotsModule.default;

export const CRAWLER_AGENT = "ParleyBot";
const USER_AGENT = `${CRAWLER_AGENT}/1.0 (knowledge base crawler)`;
const PAGE_TIMEOUT_MS = 15_000;
const MAX_PAGE_BYTES = 5 * 1024 * 1024;
/** Links to files that are not pages are not followed. */
const NOT_A_PAGE =
  /\.(pdf|zip|gz|tar|png|jpe?g|gif|webp|svg|ico|mp3|mp4|wav|webm|avi|mov|css|js|json|xml|docx?|xlsx?|pptx?)$/i;

export interface CrawlResult {
  sections: Section[];
  /** Bytes of readable text kept. */
  bytes: number;
  pages: number;
}

export type CrawlProgress = (done: number, found: number) => Promise<void>;

async function fetchText(
  fetcher: typeof fetch,
  url: URL,
  accept: string,
): Promise<{ response: Response; text: string }> {
  const response = await fetcher(url, {
    headers: { "user-agent": USER_AGENT, accept },
    signal: AbortSignal.timeout(PAGE_TIMEOUT_MS),
  });
  const length = Number(response.headers.get("content-length") ?? 0);
  if (length > MAX_PAGE_BYTES) {
    await response.body?.cancel();
    throw new PageRefusedError(`${url.href} is larger than ${MAX_PAGE_BYTES / (1024 * 1024)} MB.`);
  }
  const text = await response.text();
  return { response, text: text.slice(0, MAX_PAGE_BYTES) };
}

/** robots.txt of the site; a missing or unreadable one allows everything. */
async function robotsFor(fetcher: typeof fetch, start: URL) {
  const robotsUrl = new URL("/robots.txt", start);
  try {
    const { response, text } = await fetchText(fetcher, robotsUrl, "text/plain");
    return robotsParser(robotsUrl.href, response.ok ? text : "");
  } catch {
    return robotsParser(robotsUrl.href, "");
  }
}

/** "http://x/a answered HTTP 404 (Not Found)." — the status text only when the server sent one. */
function httpStatusSentence(url: URL, response: Response): string {
  const text = response.statusText ? ` (${response.statusText})` : "";
  return `${url.href} answered HTTP ${response.status}${text}.`;
}

const normal = (url: URL) => {
  const copy = new URL(url.href);
  copy.hash = "";
  return copy.href;
};

/**
 * Reads a site from `start`: the page itself, then same-site links breadth first down to the
 * intensity's depth, at most its page cap, skipping what robots.txt disallows for us. Every
 * request goes through `fetcher` (the SSRF-safe network), so private addresses are refused unless
 * allowed. The start page failing fails the crawl; a later page failing is skipped.
 */
export async function crawlSite(
  fetcher: typeof fetch,
  startUrl: string,
  intensity: CrawlIntensity,
  progress: CrawlProgress,
): Promise<CrawlResult> {
  const { depth: maxDepth, maxPages } = CRAWL_LIMITS[intensity];
  const start = new URL(startUrl);
  const robots = await robotsFor(fetcher, start);
  if (robots.isAllowed(start.href, CRAWLER_AGENT) === false) {
    throw new ExtractionError(`robots.txt of ${start.host} does not allow crawling ${start.pathname}.`);
  }
  const queue: { url: URL; depth: number }[] = [{ url: start, depth: 0 }];
  const seen = new Set([normal(start)]);
  const sections: Section[] = [];
  let bytes = 0;
  let done = 0;
  while (queue.length > 0) {
    const next = queue.shift();
    if (!next) break;
    try {
      const { response, text } = await fetchText(fetcher, next.url, "text/html,text/plain;q=0.8");
      if (!response.ok) throw new PageRefusedError(httpStatusSentence(next.url, response));
      const type = response.headers.get("content-type") ?? "text/html";
      if (!/text\/html|application\/xhtml|text\/plain/.test(type))
        throw new PageRefusedError(`${next.url.href} is not a page (${type}).`);
      const page = readablePage(type.includes("text/plain") ? `<pre>${text.replace(/</g, "&lt;")}</pre>` : text);
      const title = page.title || next.url.pathname;
      for (const section of page.sections) {
        sections.push({ headings: [title, ...section.headings], paragraphs: section.paragraphs });
        bytes += section.paragraphs.reduce((n, p) => n + Buffer.byteLength(p), 0);
      }
      if (next.depth < maxDepth) {
        for (const href of page.links) {
          if (seen.size >= maxPages) break;
          let link: URL;
          try {
            link = new URL(href, response.url || next.url);
          } catch {
            continue;
          }
          if (link.protocol !== "http:" && link.protocol !== "https:") continue;
          if (link.host !== start.host || NOT_A_PAGE.test(link.pathname)) continue;
          const key = normal(link);
          if (seen.has(key) || robots.isAllowed(link.href, CRAWLER_AGENT) === false) continue;
          seen.add(key);
          queue.push({ url: link, depth: next.depth + 1 });
        }
      }
    } catch (error) {
      if (done === 0 && sections.length === 0) {
        // The page was fetched but its text broke a limit: that code and sentence stand as they are.
        if (error instanceof ExtractionError) throw error;
        const reason = crawlFailureReason(error, next.url, PAGE_TIMEOUT_MS / 1000);
        throw new ExtractionError(`Could not read ${start.href}: ${reason}`, "site_unreachable");
      }
    }
    done += 1;
    await progress(done, seen.size);
  }
  if (sections.length === 0) throw new ExtractionError(`${start.href} has no readable text.`);
  return { sections, bytes, pages: done };
}
