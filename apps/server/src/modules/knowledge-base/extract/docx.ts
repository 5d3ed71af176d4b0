import { domSections, fragmentBody } from "./html.ts";
import { ExtractionError, type Section } from "./section.ts";

/** A Word document through mammoth's HTML, so its heading styles become the section trail. */
export async function docxSections(data: Buffer): Promise<Section[]> {
  let html: string;
  try {
    // Loaded on the first Word file rather than at every server start.
    const { default: mammoth } = await import("mammoth");
    html = (await mammoth.convertToHtml({ buffer: data })).value;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ExtractionError(`The Word document could not be read (${reason.replace(/\.$/, "")}).`);
  }
  return domSections(fragmentBody(html));
}
