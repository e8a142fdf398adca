import CFB from 'cfb';

/**
 * Builds small PowerPoint 97-2003 files record by record, as [MS-PPT] lays them out, so the .ppt reader is
 * tested without the corpus. Only the records the reader follows are written: the Current User stream's
 * pointer to the last edit, the edit chain with its persist directories, the document's slide and notes
 * lists, and slide and notes containers holding text atoms.
 */

const TYPE = {
  document: 0x03e8,
  slide: 0x03ee,
  slideAtom: 0x03ef,
  notes: 0x03f0,
  slidePersistAtom: 0x03f3,
  drawing: 0x040c,
  textHeaderAtom: 0x0f9f,
  textCharsAtom: 0x0fa0,
  textBytesAtom: 0x0fa8,
  slideListWithText: 0x0ff0,
  userEditAtom: 0x0ff5,
  currentUserAtom: 0x0ff6,
  persistDirectoryAtom: 0x1772,
} as const;
const CONTAINER = 0xf;
/** TextTypeEnum: Tx_TYPE_TITLE and Tx_TYPE_BODY. */
const TEXT_TYPE = { title: 0, body: 1 } as const;

function record(type: number, body: Buffer, options: { version?: number; instance?: number } = {}): Buffer {
  const header = Buffer.alloc(8);
  header.writeUInt16LE(((options.instance ?? 0) << 4) | (options.version ?? 0), 0);
  header.writeUInt16LE(type, 2);
  header.writeUInt32LE(body.length, 4);
  return Buffer.concat([header, body]);
}

function container(type: number, children: Buffer[], instance = 0): Buffer {
  return record(type, Buffer.concat(children), { version: CONTAINER, instance });
}

function uint32(...values: number[]): Buffer {
  const buffer = Buffer.alloc(values.length * 4);
  for (const [index, value] of values.entries()) buffer.writeUInt32LE(value, index * 4);
  return buffer;
}

export interface TextBox {
  kind: 'title' | 'body';
  text: string;
  /** Stored as 8-bit characters (TextBytesAtom) rather than UTF-16 (TextCharsAtom). */
  bytes?: boolean;
}

function textBox({ kind, text, bytes }: TextBox): Buffer[] {
  const stored = text.replace(/\n/g, '\r');
  return [
    record(TYPE.textHeaderAtom, uint32(TEXT_TYPE[kind])),
    bytes
      ? record(TYPE.textBytesAtom, Buffer.from(stored, 'latin1'))
      : record(TYPE.textCharsAtom, Buffer.from(stored, 'utf16le')),
  ];
}

export interface SlideFixture {
  /** Text stored in the document's slide list (placeholders), as PowerPoint also keeps it. */
  listText?: TextBox[];
  /** Text boxes drawn on the slide, in drawing order. */
  drawn: TextBox[];
  notes?: string;
}

/**
 * A presentation whose slides are listed in the given order, while their containers are written to the stream
 * in reverse, so a reader that follows the stream's order instead of the slide list gets them backwards.
 */
export function buildPpt(slides: readonly SlideFixture[]): Uint8Array {
  const documentId = 1;
  const slideId = (index: number) => 2 + index;
  const notesPersistId = (index: number) => 2 + slides.length + index;
  const notesListId = (index: number) => 0x200 + index;

  const parts: Buffer[] = [];
  const offsets = new Map<number, number>();
  const place = (persistId: number, bytes: Buffer) => {
    offsets.set(
      persistId,
      parts.reduce((total, part) => total + part.length, 0),
    );
    parts.push(bytes);
  };

  const slideList = container(
    TYPE.slideListWithText,
    slides.flatMap((slide, index) => [
      record(TYPE.slidePersistAtom, uint32(slideId(index), 0, 0, 0x100 + index, 0)),
      ...(slide.listText ?? []).flatMap(textBox),
    ]),
    0,
  );
  const notesList = container(
    TYPE.slideListWithText,
    slides.flatMap((slide, index) =>
      slide.notes === undefined
        ? []
        : [record(TYPE.slidePersistAtom, uint32(notesPersistId(index), 0, 0, notesListId(index), 0))],
    ),
    2,
  );
  place(documentId, container(TYPE.document, [slideList, notesList]));

  for (let index = slides.length - 1; index >= 0; index -= 1) {
    const slide = slides[index]!;
    const notesRef = slide.notes === undefined ? 0 : notesListId(index);
    // SlideAtom: geometry, eight placeholder types, masterIdRef, notesIdRef, flags.
    const slideAtom = record(TYPE.slideAtom, Buffer.concat([uint32(0, 0, 0, 0, notesRef), Buffer.alloc(4)]), {
      version: 2,
    });
    place(
      slideId(index),
      container(TYPE.slide, [slideAtom, container(TYPE.drawing, slide.drawn.flatMap(textBox))]),
    );
    if (slide.notes !== undefined) {
      place(
        notesPersistId(index),
        container(TYPE.notes, [container(TYPE.drawing, textBox({ kind: 'body', text: slide.notes }))]),
      );
    }
  }

  // One persist directory entry per id: 20-bit id and a count of 1, then the offset.
  const directoryOffset = parts.reduce((total, part) => total + part.length, 0);
  const entries = [...offsets].flatMap(([id, offset]) => [(1 << 20) | id, offset]);
  parts.push(record(TYPE.persistDirectoryAtom, uint32(...entries)));
  const editOffset = directoryOffset + 8 + entries.length * 4;
  // UserEditAtom: lastSlideIdRef, version and file versions, offsetLastEdit (0: none older),
  // offsetPersistDirectory, docPersistIdRef, persistIdSeed, lastView and padding.
  parts.push(record(TYPE.userEditAtom, uint32(0, 0, 0, directoryOffset, documentId, 0x100, 0)));

  // CurrentUserAtom: size, header token, offsetToCurrentEdit, then the user name's length and version fields.
  const currentUser = record(TYPE.currentUserAtom, uint32(20, 0xe391c05f, editOffset, 0, 0));

  const file = CFB.utils.cfb_new();
  CFB.utils.cfb_add(file, 'PowerPoint Document', Buffer.concat(parts));
  CFB.utils.cfb_add(file, 'Current User', currentUser);
  return new Uint8Array(CFB.write(file, { type: 'buffer' }) as Buffer);
}
