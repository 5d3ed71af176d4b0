/** A run of text under its headings: what every extractor yields and the chunker reads. */
export interface Section {
  /** The headings above the text, outermost first (joined " › " when shown). */
  headings: string[];
  /** Paragraphs, records or lines, in reading order. */
  paragraphs: string[];
}

/** A document that cannot be read: the message is shown to the user as the document's error. */
export class ExtractionError extends Error {
  override name = "ExtractionError";
}

/** Collapses runs of blank space inside a paragraph. */
export const tidy = (text: string) => text.replace(/[ \t\u00a0]+/g, " ").trim();

/** Builds sections from a stream of headings and paragraphs, keeping the heading trail by level. */
export class SectionBuilder {
  private readonly sections: Section[] = [];
  private trail: { level: number; text: string }[] = [];
  private current: Section = { headings: [], paragraphs: [] };

  heading(level: number, text: string): void {
    const clean = tidy(text);
    if (!clean) return;
    this.flush();
    this.trail = [...this.trail.filter((h) => h.level < level), { level, text: clean }];
    this.current = { headings: this.trail.map((h) => h.text), paragraphs: [] };
  }

  paragraph(text: string): void {
    const clean = tidy(text);
    if (clean) this.current.paragraphs.push(clean);
  }

  build(): Section[] {
    this.flush();
    return this.sections;
  }

  private flush(): void {
    if (this.current.paragraphs.length > 0) this.sections.push(this.current);
    this.current = { headings: this.current.headings, paragraphs: [] };
  }
}
