import { DOCUMENT_LIMITS } from "@parley/contract";
import { boundedZip, type ZipParts } from "./bounded-zip.ts";
import { domSections, fragmentBody } from "./html.ts";
import { ExtractionError, type Section, tooManyParagraphs } from "./section.ts";

/** A paragraph element of WordprocessingML, whatever prefix its namespace has (`<w:p>`, `<w:p/>`). */
const PARAGRAPH = /<(?:[A-Za-z_][\w.-]*:)?p[\s/>]/g;

function countParagraphs(xml: string): number {
  let n = 0;
  PARAGRAPH.lastIndex = 0;
  while (PARAGRAPH.exec(xml)) n += 1;
  return n;
}

/**
 * The archive as mammoth reads it, counting the paragraphs of every XML part it reads (body,
 * footnotes, comments …) before mammoth parses them: its converter needs ≈ 8 KB per paragraph,
 * so the count, not the file's size, is what must stay bounded.
 */
function countingParagraphs(zip: ZipParts): ZipParts {
  let paragraphs = 0;
  return {
    exists: zip.exists,
    read: async (name, encoding) => {
      const content = await zip.read(name, encoding);
      if (typeof content === "string" && name.endsWith(".xml")) {
        paragraphs += countParagraphs(content);
        if (paragraphs > DOCUMENT_LIMITS.wordParagraphs) throw tooManyParagraphs(DOCUMENT_LIMITS.wordParagraphs);
      }
      return content;
    },
  };
}

/** A Word document through mammoth's HTML, so its heading styles become the section trail. */
export async function docxSections(data: Buffer): Promise<Section[]> {
  let html: string;
  try {
    // Loaded on the first Word file rather than at every server start.
    const { default: mammoth } = await import("mammoth");
    // mammoth opens `{ file }` as an archive already open (lib/unzip.js; not in its type
    // declarations): ours unpacks within DOCUMENT_LIMITS.unzippedBytes.
    const input = { file: countingParagraphs(boundedZip(data)) } as unknown as { buffer: Buffer };
    // Images are never unpacked: only text is indexed.
    const convertImage = mammoth.images.imgElement(async () => ({ src: "" }));
    html = (await mammoth.convertToHtml(input, { convertImage })).value;
  } catch (error) {
    if (error instanceof ExtractionError) throw error;
    const reason = error instanceof Error ? error.message : String(error);
    throw new ExtractionError(`The Word document could not be read (${reason.replace(/\.$/, "")}).`);
  }
  return domSections(fragmentBody(html));
}
