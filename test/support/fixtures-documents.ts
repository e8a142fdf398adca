import { Document, HeadingLevel, Packer, Paragraph } from 'docx';
import PDFDocument from 'pdfkit';
import PptxGenJSModule from 'pptxgenjs';

// pptxgenjs's types describe its CommonJS build while Node loads its ES build, whose default export is the class.
const PptxGenJS = PptxGenJSModule as unknown as typeof PptxGenJSModule.default;

/** A PDF with one text page per entry, made with pdfkit. */
export function buildPdf(pages: string[]): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const document = new PDFDocument({ autoFirstPage: false, compress: false });
    const parts: Buffer[] = [];
    document.on('data', (part: Buffer) => parts.push(part));
    document.on('end', () => resolve(new Uint8Array(Buffer.concat(parts))));
    document.on('error', reject);
    for (const text of pages) {
      document.addPage();
      document.fontSize(14).text(text);
    }
    document.end();
  });
}

/** A PDF whose only page holds a drawing: no text, and no picture to recognise. */
export function buildTextlessPdf(): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const document = new PDFDocument();
    const parts: Buffer[] = [];
    document.on('data', (part: Buffer) => parts.push(part));
    document.on('end', () => resolve(new Uint8Array(Buffer.concat(parts))));
    document.on('error', reject);
    document.rect(50, 50, 200, 100).fill('#336699');
    document.end();
  });
}

export interface Section {
  heading: string;
  level: 1 | 2;
  paragraphs: string[];
}

/** A DOCX with real Word heading styles, made with the docx package. */
export async function buildDocx(sections: Section[]): Promise<Uint8Array> {
  const document = new Document({
    sections: [
      {
        children: sections.flatMap((section) => [
          new Paragraph({
            text: section.heading,
            heading: section.level === 1 ? HeadingLevel.HEADING_1 : HeadingLevel.HEADING_2,
          }),
          ...section.paragraphs.map((text) => new Paragraph({ text })),
        ]),
      },
    ],
  });
  return new Uint8Array(await Packer.toBuffer(document));
}

export interface Slide {
  title: string;
  body: string;
  notes: string;
}

/** A PPTX with one text slide and speaker notes per entry, made with pptxgenjs. */
export async function buildPptx(slides: Slide[]): Promise<Uint8Array> {
  const presentation = new PptxGenJS();
  for (const { title, body, notes } of slides) {
    const slide = presentation.addSlide();
    slide.addText(title, { x: 0.5, y: 0.3, w: 9, h: 1, fontSize: 28 });
    slide.addText(body, { x: 0.5, y: 2, w: 9, h: 1.5 });
    slide.addNotes(notes);
  }
  const output = await presentation.write({ outputType: 'nodebuffer' });
  return new Uint8Array(output as Buffer);
}

export interface Attachment {
  fileName: string;
  contentType: string;
  bytes: Uint8Array;
}

/** A multipart e-mail message with a plain-text body and base64 attachments. */
export function buildEml(
  headers: Record<string, string>,
  body: string,
  attachments: Attachment[] = [],
): Uint8Array {
  const boundary = 'ckb-test-boundary';
  const lines = [
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
    'MIME-Version: 1.0',
    `Content-Type: multipart/mixed; boundary="${boundary}"`,
    '',
    `--${boundary}`,
    'Content-Type: text/plain; charset=utf-8',
    '',
    body,
  ];
  for (const attachment of attachments) {
    lines.push(
      `--${boundary}`,
      `Content-Type: ${attachment.contentType}; name="${attachment.fileName}"`,
      `Content-Disposition: attachment; filename="${attachment.fileName}"`,
      'Content-Transfer-Encoding: base64',
      '',
      ...(Buffer.from(attachment.bytes)
        .toString('base64')
        .match(/.{1,76}/g) ?? []),
    );
  }
  lines.push(`--${boundary}--`, '');
  return new TextEncoder().encode(lines.join('\r\n'));
}

/** Text as UTF-16 with a byte-order mark, as Windows Notepad saves "Unicode" files. */
export function utf16WithBom(text: string, order: 'le' | 'be'): Uint8Array {
  const little = Buffer.from(text, 'utf16le');
  const bytes = order === 'le' ? little : little.swap16();
  return new Uint8Array(
    Buffer.concat([order === 'le' ? Buffer.from([0xff, 0xfe]) : Buffer.from([0xfe, 0xff]), bytes]),
  );
}
