import { type Section, SectionBuilder } from "./section.ts";

const HEADING = /^(#{1,6})\s+(.+?)\s*#*\s*$/;

/** Strips the inline marks people do not say aloud: emphasis, code ticks, link targets, images. */
function plain(line: string): string {
  return line
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/\[([^\]]+)\]\([^)]*\)/g, "$1")
    .replace(/[*_`~]+/g, "")
    .replace(/^\s*(?:[-*+]|\d+[.)])\s+/, "")
    .replace(/^\s*>\s?/, "");
}

/** Markdown: `#` headings become the trail; blank lines separate paragraphs, list items stand alone. */
export function markdownSections(text: string): Section[] {
  const out = new SectionBuilder();
  let paragraph: string[] = [];
  const end = () => {
    out.paragraph(paragraph.join(" "));
    paragraph = [];
  };
  let fenced = false;
  for (const line of text.split(/\r?\n/)) {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      end();
      continue;
    }
    const heading = fenced ? null : HEADING.exec(line);
    if (heading) {
      end();
      out.heading(heading[1]?.length ?? 1, plain(heading[2] ?? ""));
    } else if (!line.trim() || /^\s*(?:[-*+]|\d+[.)])\s+/.test(line) || /^\s*(?:-{3,}|\*{3,})\s*$/.test(line)) {
      end();
      if (/^\s*(?:-{3,}|\*{3,})\s*$/.test(line)) continue;
      if (line.trim()) paragraph.push(plain(line));
    } else {
      paragraph.push(fenced ? line : plain(line));
    }
  }
  end();
  return out.build();
}

/** Plain text: paragraphs split on blank lines, no headings. */
export function textSections(text: string): Section[] {
  const out = new SectionBuilder();
  for (const block of text.split(/\r?\n\s*\r?\n/)) out.paragraph(block.replace(/\s*\r?\n\s*/g, " "));
  return out.build();
}
