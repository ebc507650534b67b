import { Document, HeadingLevel, Packer, Paragraph, Table, TableCell, TableRow } from "docx";
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

/** A PDF of two text columns on one page: each column's lines side by side, row by row. */
export async function makeTwoColumnPdf(left: string[], right: string[], title?: string): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const page = pdf.addPage([595, 842]);
  if (title) page.drawText(title, { x: 40, y: 800, size: 16, font });
  for (let j = 0; j < Math.max(left.length, right.length); j++) {
    const y = 760 - j * 16;
    if (left[j]) page.drawText(left[j] as string, { x: 40, y, size: 11, font });
    if (right[j]) page.drawText(right[j] as string, { x: 320, y, size: 11, font });
  }
  return pdf.save();
}

/** A 2×2 grey PNG, the "scan" of {@link makeScannedPdf}. */
const GREY_PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAAAAABX3VL4AAAAEUlEQVR4nGNgYGBgYGBgYAAAAAUAAUeQ2zsAAAAASUVORK5CYII=", "base64");

/** A PDF like a scanner makes: each page one image, no text layer. */
export async function makeScannedPdf(pages = 1): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  const png = await pdf.embedPng(GREY_PNG);
  for (let i = 0; i < pages; i++) pdf.addPage([595, 842]).drawImage(png, { x: 0, y: 0, width: 595, height: 842 });
  return pdf.save();
}

/**
 * A password-protected PDF: a text PDF whose trailer names a standard security handler
 * (RC4, revision 2) whose user password is not empty, so a reader asks for a password.
 */
export async function makeEncryptedPdf(): Promise<Uint8Array> {
  const plain = Buffer.from(await (await PDFDocument.load(await makePdf(["Secret terms."]))).save({ useObjectStreams: false })).toString("latin1");
  const hex = (byte: string) => `<${byte.repeat(32)}>`;
  const encrypt = `/Encrypt << /Filter /Standard /V 1 /R 2 /O ${hex("4f")} /U ${hex("5a")} /P -44 >> /ID [<${"ab".repeat(16)}> <${"ab".repeat(16)}>]`;
  return Buffer.from(
    plain.replace(/trailer\s*<</, (m) => `${m}\n${encrypt}`),
    "latin1",
  );
}

/**
 * A password-protected Word document as Word saves it: a compound file (CFB) holding
 * `EncryptionInfo` and `EncryptedPackage` streams, not a zip. Only its signature and its
 * directory's stream names are real; that is what the upload reads.
 */
export function makeEncryptedDocx(): Uint8Array {
  const header = Buffer.alloc(512);
  Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]).copy(header);
  const dir = Buffer.alloc(512);
  Buffer.from("EncryptionInfo", "utf16le").copy(dir, 0);
  Buffer.from("EncryptedPackage", "utf16le").copy(dir, 128);
  return Buffer.concat([header, dir, Buffer.alloc(1024, 0x37)]);
}

/** A DOCX with a heading, a bulleted list and a table (`rows`, the first the header). */
export async function makeDocxWithTable(heading: string, bullets: string[], rows: string[][]): Promise<Uint8Array> {
  const doc = new Document({
    sections: [
      {
        children: [
          new Paragraph({ text: heading, heading: HeadingLevel.HEADING_1 }),
          ...bullets.map((b) => new Paragraph({ text: b, bullet: { level: 0 } })),
          new Table({ rows: rows.map((r) => new TableRow({ children: r.map((c) => new TableCell({ children: [new Paragraph(c)] })) })) }),
          new Paragraph("After the table."),
        ],
      },
    ],
  });
  return new Uint8Array(await Packer.toBuffer(doc));
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
