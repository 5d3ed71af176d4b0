import { DOCUMENT_LIMITS, type DocumentFailure } from "@parley/contract";

/** A run of text under its headings: what every extractor yields and the chunker reads. */
export interface Section {
  /** The headings above the text, outermost first (joined " › " when shown). */
  headings: string[];
  /** Paragraphs, records or lines, in reading order. */
  paragraphs: string[];
}

/**
 * A document that cannot be read: the message is shown to the user as the document's error, the
 * code tells the app which sentence to show in the user's language.
 */
export class ExtractionError extends Error {
  override name = "ExtractionError";
  constructor(
    message: string,
    readonly code: DocumentFailure = "unreadable",
  ) {
    super(message);
  }
}

const count = (n: number) => n.toLocaleString("en-US");

export const tooManyParagraphs = (limit: number) =>
  new ExtractionError(
    `The document has more than ${count(limit)} paragraphs, more than the knowledge base reads from one file. Split it into smaller files.`,
    "too_many_paragraphs",
  );

export const tooMuchText = () =>
  new ExtractionError(
    `The document has more than ${count(DOCUMENT_LIMITS.characters)} characters of text, more than the knowledge base reads from one file. Split it into smaller files.`,
    "too_large",
  );

/** Collapses runs of blank space inside a paragraph. */
export const tidy = (text: string) => text.replace(/[ \t\u00a0]+/g, " ").trim();

/**
 * Builds sections from a stream of headings and paragraphs, keeping the heading trail by level. It
 * stops (ExtractionError) past DOCUMENT_LIMITS' paragraphs or characters, so no extractor holds
 * more text than a document may make chunks of.
 */
export class SectionBuilder {
  private readonly sections: Section[] = [];
  private paragraphs = 0;
  private characters = 0;
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
    if (!clean) return;
    this.paragraphs += 1;
    this.characters += clean.length;
    if (this.paragraphs > DOCUMENT_LIMITS.paragraphs) throw tooManyParagraphs(DOCUMENT_LIMITS.paragraphs);
    if (this.characters > DOCUMENT_LIMITS.characters) throw tooMuchText();
    this.current.paragraphs.push(clean);
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
