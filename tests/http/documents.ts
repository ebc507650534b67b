import { Document, Packer, Paragraph } from "docx";
import { PDFDocument, StandardFonts } from "pdf-lib";

/**
 * Test documents made on the fly (docs/documents.md): a PDF (pdf-lib) and a DOCX (docx)
 * holding the given lines, and a hand-built multipart body whose part names are sent exactly
 * as given (FormData would clean them).
 */

/** A PDF with one line of text per entry, on one page per `perPage` lines. */
export async function makePdf(lines: string[], perPage = 20): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (let i = 0; i < lines.length; i += perPage) {
    const page = pdf.addPage([595, 842]);
    lines.slice(i, i + perPage).forEach((line, j) => {
      page.drawText(line, { x: 50, y: 790 - j * 24, size: 12, font });
    });
  }
  return pdf.save();
}

/** A DOCX with one paragraph per entry. */
export async function makeDocx(paragraphs: string[]): Promise<Uint8Array> {
  const doc = new Document({ sections: [{ children: paragraphs.map((p) => new Paragraph(p)) }] });
  return new Uint8Array(await Packer.toBuffer(doc));
}

/** One part of a hand-built multipart body. */
export interface RawPart {
  /** Field name (default "file"). */
  field?: string;
  /** The filename parameter, written as is between quotes (undefined: none). */
  filename?: string;
  bytes: Uint8Array | string;
}

/** A multipart/form-data body with the parts as given, and its content type. */
export function rawMultipart(parts: RawPart[]): { body: Buffer; contentType: string } {
  const boundary = `----phylactery-test-${Math.random().toString(36).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const p of parts) {
    const fname = p.filename === undefined ? "" : `; filename="${p.filename}"`;
    chunks.push(Buffer.from(`--${boundary}\r\ncontent-disposition: form-data; name="${p.field ?? "file"}"${fname}\r\ncontent-type: application/octet-stream\r\n\r\n`, "utf8"));
    chunks.push(Buffer.from(p.bytes));
    chunks.push(Buffer.from("\r\n"));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}
