import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import CFB from 'cfb';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chunkContextText, chunkDocument } from '../../daemon/ingest/chunk.ts';
import { createExtractor } from '../../daemon/ingest/extract/index.ts';
import { failureOf } from '../support/extraction-failure.ts';
import {
  buildDocx,
  buildEml,
  buildPdf,
  buildPptx,
  buildTextlessPdf,
  utf16WithBom,
} from '../support/fixtures-documents.ts';

const extractor = createExtractor();
let directory: string;
beforeAll(async () => {
  directory = await mkdtemp(join(tmpdir(), 'ckb-extract-'));
});
afterAll(async () => {
  await extractor.close();
  await rm(directory, { recursive: true, force: true });
});

const encode = (text: string): Uint8Array => new TextEncoder().encode(text);

describe('PDF', () => {
  it('gives one page per PDF page, each with its own text', async () => {
    const pdf = await buildPdf([
      'Alpha harbour page one',
      'Bravo lighthouse page two',
      'Charlie tide page three',
    ]);
    const document = await extractor.extractBuffer(pdf, 'three.pdf');
    expect(document.pages.map((page) => [page.page, page.text])).toEqual([
      [1, 'Alpha harbour page one'],
      [2, 'Bravo lighthouse page two'],
      [3, 'Charlie tide page three'],
    ]);
  });

  it('reads a file from disk the same way', async () => {
    const path = join(directory, 'stored-upload');
    await writeFile(path, await buildPdf(['Stored on disk']));
    const document = await extractor.extractFile(path, 'report.pdf');
    expect(document.pages).toEqual([{ page: 1, text: 'Stored on disk' }]);
  });

  it('says a PDF of drawings holds no text to read, neither typed nor scanned', async () => {
    const failure = await failureOf(extractor.extractBuffer(await buildTextlessPdf(), 'drawing.pdf'));
    expect(failure.reason).toBe('no_text');
    expect(failure.message).toBe(
      'drawing.pdf could not be read: no text could be extracted: its pages hold neither text nor a scanned image to read',
    );
  });
});

describe('DOCX', () => {
  it('keeps headings as # lines in order', async () => {
    const docx = await buildDocx([
      { heading: 'Harbour rules', level: 1, paragraphs: ['Boats moor on the east quay.'] },
      {
        heading: 'Night arrivals',
        level: 2,
        paragraphs: ['Call the harbour master first.', 'Show a white light.'],
      },
    ]);
    const [page] = (await extractor.extractBuffer(docx, 'rules.docx')).pages;
    expect(page?.text).toBe(
      '# Harbour rules\n\nBoats moor on the east quay.\n\n## Night arrivals\n\nCall the harbour master first.\n\nShow a white light.',
    );
  });

  it('reads a DOCX that was saved with a .doc extension', async () => {
    const docx = await buildDocx([{ heading: 'Misnamed', level: 1, paragraphs: ['Still readable.'] }]);
    const [page] = (await extractor.extractBuffer(docx, 'old-name.doc')).pages;
    expect(page?.text).toContain('Still readable.');
  });
});

describe('PPTX', () => {
  it('gives one page per slide, with the speaker notes after the slide text', async () => {
    const pptx = await buildPptx([
      { title: 'Opening', body: 'Welcome aboard the ferry', notes: 'Smile and wave' },
      { title: 'Safety', body: 'Life jackets are under the seats', notes: 'Point at the seats' },
    ]);
    const document = await extractor.extractBuffer(pptx, 'deck.pptx');
    expect(document.pages.map((page) => [page.page, page.text])).toEqual([
      [1, '# Opening\nWelcome aboard the ferry\n\nNotes:\nSmile and wave'],
      [2, 'Safety\nLife jackets are under the seats\n\nNotes:\nPoint at the seats'],
    ]);
  });

  it("puts every slide under the deck's title, the first slide's short first line", async () => {
    const pptx = await buildPptx([
      { title: 'Harbour Ferry Service', body: 'Spring 2026', notes: '' },
      { title: 'Tickets', body: 'A return costs 12 pounds.', notes: '' },
    ]);
    const chunks = chunkDocument(await extractor.extractBuffer(pptx, 'deck.pptx'));
    expect(chunks.map((chunk) => [chunk.page, chunk.headings])).toEqual([
      [1, ['Harbour Ferry Service']],
      [2, ['Harbour Ferry Service']],
    ]);
    expect(chunkContextText(chunks[1]!)).toBe('Harbour Ferry Service\nTickets\nA return costs 12 pounds.');

    // A first slide that opens with a sentence titles nothing.
    const untitled = await buildPptx([
      { title: 'Tickets cost 12 pounds.', body: 'Buy them aboard', notes: '' },
    ]);
    expect((await extractor.extractBuffer(untitled, 'plain.pptx')).pages[0]?.text).toBe(
      'Tickets cost 12 pounds.\nBuy them aboard',
    );
    // Nor does one that opens with a list's item.
    const listed = await buildPptx([{ title: '- Tickets', body: 'Buy them aboard', notes: '' }]);
    expect((await extractor.extractBuffer(listed, 'list.pptx')).pages[0]?.text).toBe(
      '- Tickets\nBuy them aboard',
    );
  });
});

describe('JSON', () => {
  it('flattens values into path: value lines', async () => {
    const json = JSON.stringify({
      people: [{ name: 'Ada', born: 1815 }],
      'odd key': { active: true },
      empty: null,
    });
    const [page] = (await extractor.extractBuffer(encode(json), 'people.json')).pages;
    expect(page?.text).toBe('people[0].name: Ada\npeople[0].born: 1815\n"odd key".active: true\nempty: null');
  });

  it('names the syntax error of invalid JSON', async () => {
    const failure = await failureOf(extractor.extractBuffer(encode('{"open": '), 'broken.json'));
    expect(failure.reason).toBe('corrupt');
    expect(failure.message).toMatch(/^broken\.json could not be read: the file is not valid JSON \(.+\)$/);
  });
});

describe('EML', () => {
  it('puts headers and body on page 1 and each attachment page after it', async () => {
    const eml = buildEml(
      {
        Subject: 'Tide tables for March',
        From: 'Harbour Office <office@harbour.example>',
        To: 'crew@harbour.example',
        Date: 'Tue, 03 Mar 2026 09:30:00 +0000',
      },
      'Please find the tables attached.',
      [
        {
          fileName: 'tides.pdf',
          contentType: 'application/pdf',
          bytes: await buildPdf(['High water 06:12', 'Low water 12:40']),
        },
        { fileName: 'photo.png', contentType: 'image/png', bytes: new Uint8Array([0x89, 0x50, 0x4e, 0x47]) },
      ],
    );
    const document = await extractor.extractBuffer(eml, 'tides.eml');
    expect(document.title).toBe('Tide tables for March');
    expect(document.pages).toEqual([
      {
        page: 1,
        title: 'Tide tables for March',
        text:
          'Subject: Tide tables for March\nFrom: Harbour Office <office@harbour.example>\nTo: crew@harbour.example\n' +
          'Date: 2026-03-03T09:30:00.000Z\nAttachments: tides.pdf, photo.png\n\nPlease find the tables attached.',
      },
      { page: 2, title: 'tides.pdf', text: 'High water 06:12' },
      { page: 3, title: 'tides.pdf', text: 'Low water 12:40' },
    ]);
  });

  it('names an attachment of a type it does not read among the headers', async () => {
    const eml = buildEml({ Subject: 'Signed' }, 'Signed mail.', [
      {
        fileName: 'smime.p7s',
        contentType: 'application/pkcs7-signature',
        bytes: new Uint8Array([0x30, 0x80, 0x06, 0x09]),
      },
    ]);
    const document = await extractor.extractBuffer(eml, 'signed.eml');
    expect(document.pages).toEqual([
      { page: 1, title: 'Signed', text: 'Subject: Signed\nAttachments: smime.p7s\n\nSigned mail.' },
    ]);
  });

  it('names an attachment that could not be read in the message page', async () => {
    const eml = buildEml({ Subject: 'Locked' }, 'See attached.', [
      { fileName: 'empty.pdf', contentType: 'application/pdf', bytes: new Uint8Array() },
    ]);
    const document = await extractor.extractBuffer(eml, 'locked.eml');
    expect(document.pages).toHaveLength(1);
    expect(document.pages[0]?.text).toContain(
      'Attachment empty.pdf could not be read: the file is empty (0 bytes)',
    );
  });
});

describe('TXT and Markdown', () => {
  it.each(['le', 'be'] as const)('decodes UTF-16 %s text with a byte-order mark', async (order) => {
    const bytes = utf16WithBom('Grüße aus Köln\r\nzweite Zeile', order);
    const [page] = (await extractor.extractBuffer(bytes, 'notes.txt')).pages;
    expect(page?.text).toBe('Grüße aus Köln\nzweite Zeile');
  });

  it('reads Latin-1 bytes that are not valid UTF-8', async () => {
    const bytes = new Uint8Array(Buffer.from('Caf\u00e9 cr\u00e8me', 'latin1'));
    const [page] = (await extractor.extractBuffer(bytes, 'menu.txt')).pages;
    expect(page?.text).toBe('Café crème');
  });

  it('removes NUL and control characters and collapses spaces within lines', async () => {
    const [page] = (await extractor.extractBuffer(encode('a\u0000b \t  c\u0007\r\n\r\n\r\n\r\nd'), 'x.txt'))
      .pages;
    expect(page?.text).toBe('ab c\n\nd');
  });

  it('reads a .txt that is really an HTML page as HTML', async () => {
    const html =
      '<!DOCTYPE html><html><head><title>Saved page</title></head><body><h1>Moorings</h1><p>Free</p></body></html>';
    const document = await extractor.extractBuffer(encode(html), 'saved.txt');
    expect(document.pages[0]?.text).toBe('# Moorings\n\nFree');
    expect(document.title).toBe('Saved page');
  });

  it('keeps Markdown headings and turns underlined headings into # lines', async () => {
    const markdown =
      '---\nlayout: page\n---\nGuide\n=====\n\nIntro text.\n\nDetails\n-------\n\n### Deep\n\nMore.';
    const document = await extractor.extractBuffer(encode(markdown), 'guide.md');
    expect(document.pages[0]?.text).toBe('# Guide\n\nIntro text.\n\n## Details\n\n### Deep\n\nMore.');
    expect(document.title).toBe('Guide');
  });
});

describe('TXT headings', () => {
  it('turns lone flush-left lines over indented text, and underlined lines, into # lines', async () => {
    const changelog =
      'Release 2.0 - 8/18/2026\n\n  * Faster start-up.\n    Wrapped entry line\n\nRelease 1.0 - 12/27/2007\n------------------------\n\n1. First entry (ann)\n\n2. Second entry (bob)';
    const [page] = (await extractor.extractBuffer(encode(changelog), 'CHANGES.txt')).pages;
    expect(page?.text).toBe(
      '## Release 2.0 - 8/18/2026\n\n* Faster start-up.\nWrapped entry line\n\n## Release 1.0 - 12/27/2007\n\n1. First entry (ann)\n\n2. Second entry (bob)',
    );
  });

  it('leaves flush-left prose, verse and lines over flush-left text as they are', async () => {
    const text =
      'Little Bo peep has lost her sheep\nAnd does not know where to find them.\n\nA note\n\nflush text follows.\n\nEnds like a sentence.\n\n  indented after it\n\nThe end\n---';
    const [page] = (await extractor.extractBuffer(encode(text), 'poem.txt')).pages;
    expect(page?.text).toBe(
      'Little Bo peep has lost her sheep\nAnd does not know where to find them.\n\nA note\n\nflush text follows.\n\nEnds like a sentence.\n\nindented after it\n\nThe end\n---',
    );
  });
});

describe('HTML', () => {
  it('honours the charset a page declares', async () => {
    const html = Buffer.concat([
      Buffer.from('<html><head><meta charset="windows-1252"><title>Prix</title></head><body><p>', 'latin1'),
      Buffer.from('\u20ac5 le caf\u00e9', 'latin1').fill(0x80, 0, 1),
      Buffer.from('</p></body></html>', 'latin1'),
    ]);
    const document = await extractor.extractBuffer(new Uint8Array(html), 'prix.html');
    expect(document.pages[0]?.text).toBe('€5 le café');
  });
});

describe('refusals', () => {
  it('refuses unsupported extensions', async () => {
    const failure = await failureOf(extractor.extractBuffer(encode('x'), 'sheet.xlsx'));
    expect(failure.reason).toBe('unsupported');
    expect(failure.message).toBe('sheet.xlsx could not be read: files of type ".xlsx" are not supported');
  });

  it('refuses files over maxBytes before parsing them', async () => {
    const failure = await failureOf(
      extractor.extractBuffer(new Uint8Array(2048), 'big.txt', { maxBytes: 1024 }),
    );
    expect(failure.reason).toBe('too_large');
    expect(failure.message).toBe(
      'big.txt could not be read: the file is 0.0 MB, more than the limit of 0.0 MB',
    );
  });

  it('says when the stored file is missing', async () => {
    const failure = await failureOf(extractor.extractFile(join(directory, 'absent'), 'gone.pdf'));
    expect(failure.reason).toBe('unreadable');
    expect(failure.message).toBe('gone.pdf could not be read: the stored file is missing');
  });

  it('says a PDF is really an HTML page', async () => {
    const failure = await failureOf(
      extractor.extractBuffer(encode('<html><body>hi</body></html>'), 'fake.pdf'),
    );
    expect(failure.reason).toBe('mislabelled');
  });
});

describe('OLE containers', () => {
  // Office wraps a password-protected .docx/.pptx in an OLE container whose payload is the EncryptedPackage stream.
  function oleContainer(streams: Record<string, Uint8Array>): Uint8Array {
    const container = CFB.utils.cfb_new();
    for (const [name, content] of Object.entries(streams)) CFB.utils.cfb_add(container, `/${name}`, content);
    return new Uint8Array(CFB.write(container, { type: 'buffer' }) as Buffer);
  }

  it.each(['secret.docx', 'secret.pptx'])(
    'reports %s in an encrypted container as encrypted',
    async (fileName) => {
      const bytes = oleContainer({
        EncryptionInfo: new Uint8Array(64),
        EncryptedPackage: new Uint8Array(4096),
      });
      const failure = await failureOf(extractor.extractBuffer(bytes, fileName));
      expect(failure.reason).toBe('encrypted');
      expect(failure.message).toBe(
        `${fileName} could not be read: the file is encrypted (password protected); remove the password and upload it again`,
      );
    },
  );

  it('reports an OLE container without a Word document as damaged', async () => {
    const failure = await failureOf(
      extractor.extractBuffer(oleContainer({ Other: new Uint8Array(16) }), 'odd.doc'),
    );
    expect(failure.reason).toBe('corrupt');
  });
});
