import { crc32, deflateRawSync } from "node:zlib";

/** A minimal PDF with one Helvetica text page per entry (each a list of lines). */
export function makePdf(pages: string[][]): Buffer {
  const objects: string[] = [];
  const add = (body: string) => objects.push(body);
  add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>");
  const pagesId = 2;
  add("");
  const kids: number[] = [];
  for (const lines of pages) {
    const escaped = (t: string) => t.replace(/[\\()]/g, (c) => `\\${c}`);
    const body = `BT /F1 12 Tf 14 TL 72 720 Td ${lines.map((l) => `(${escaped(l)}) Tj T*`).join(" ")} ET`;
    const content = add(`<< /Length ${Buffer.byteLength(body)} >>\nstream\n${body}\nendstream`);
    kids.push(
      add(
        `<< /Type /Page /Parent ${pagesId} 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 1 0 R >> >> /Contents ${content} 0 R >>`,
      ),
    );
  }
  objects[pagesId - 1] = `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(" ")}] /Count ${kids.length} >>`;
  const catalog = add(`<< /Type /Catalog /Pages ${pagesId} 0 R >>`);
  const header = "%PDF-1.4\n";
  const bodies = objects.map((body, i) => `${i + 1} 0 obj\n${body}\nendobj\n`);
  // The cross-reference table gives each object's byte offset; the table itself starts after the last.
  let offset = Buffer.byteLength(header, "latin1");
  const table = bodies
    .map((body) => {
      const entry = `${String(offset).padStart(10, "0")} 00000 n \n`;
      offset += Buffer.byteLength(body, "latin1");
      return entry;
    })
    .join("");
  const trailer = `trailer\n<< /Size ${objects.length + 1} /Root ${catalog} 0 R >>\nstartxref\n${offset}\n%%EOF\n`;
  const xref = `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${table}`;
  return Buffer.from(header + bodies.join("") + xref + trailer, "latin1");
}

const u16 = (value: number) => {
  const out = Buffer.alloc(2);
  out.writeUInt16LE(value);
  return out;
};
const u32 = (value: number) => {
  const out = Buffer.alloc(4);
  out.writeUInt32LE(value);
  return out;
};

/**
 * The fields a ZIP local header and its central directory entry share, from "version needed" (2.0)
 * to the extra field's length: no flags, deflated, no time, the CRC, sizes and the name's length.
 */
function fileFields(crc: number, packedSize: number, rawSize: number, nameLength: number): Buffer {
  const fields = Buffer.alloc(26);
  fields.writeUInt16LE(20, 0);
  fields.writeUInt16LE(8, 4);
  fields.writeUInt32LE(crc, 10);
  fields.writeUInt32LE(packedSize, 14);
  fields.writeUInt32LE(rawSize, 18);
  fields.writeUInt16LE(nameLength, 22);
  return fields;
}

/** A ZIP archive of the given files (deflated), as Office documents are. */
export function makeZip(files: Record<string, string>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, text] of Object.entries(files)) {
    const raw = Buffer.from(text, "utf8");
    const packed = deflateRawSync(raw);
    const nameBytes = Buffer.from(name, "utf8");
    const crc = crc32(raw);
    const fields = fileFields(crc, packed.length, raw.length, nameBytes.length);
    const local = Buffer.concat([u32(0x04034b50), fields]);
    // The central entry: who made it (version 2.0), the same fields, then where the local header is.
    const tail = Buffer.alloc(14);
    tail.writeUInt32LE(offset, 10);
    const central = Buffer.concat([u32(0x02014b50), u16(20), fields, tail]);
    locals.push(local, nameBytes, packed);
    centrals.push(central, nameBytes);
    offset += local.length + nameBytes.length + packed.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(files).length, 8);
  end.writeUInt16LE(Object.keys(files).length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

const xmlEscape = (t: string) => t.replace(/&/g, "&amp;").replace(/</g, "&lt;");

/** A Word document: `["h1", "Title"]` makes a Heading 1 paragraph, `["p", "text"]` a plain one. */
export function makeDocx(paragraphs: [kind: "h1" | "h2" | "p", text: string][]): Buffer {
  const body = paragraphs
    .map(([kind, text]) => {
      const style = kind === "p" ? "" : `<w:pPr><w:pStyle w:val="Heading${kind.slice(1)}"/></w:pPr>`;
      return `<w:p>${style}<w:r><w:t xml:space="preserve">${xmlEscape(text)}</w:t></w:r></w:p>`;
    })
    .join("");
  const W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main";
  return makeZip({
    "[Content_Types].xml": `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>`,
    "_rels/.rels": `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>`,
    "word/document.xml": `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="${W}"><w:body>${body}</w:body></w:document>`,
  });
}

/** A multipart/form-data body with the given files under the field "files". */
export function multipartBody(files: { name: string; data: Buffer; type?: string }[]) {
  const boundary = `----parley${Math.random().toString(16).slice(2)}`;
  const parts: Buffer[] = [];
  for (const file of files) {
    parts.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="${file.name}"\r\nContent-Type: ${file.type ?? "application/octet-stream"}\r\n\r\n`,
      ),
      file.data,
      Buffer.from("\r\n"),
    );
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), headers: { "content-type": `multipart/form-data; boundary=${boundary}` } };
}
