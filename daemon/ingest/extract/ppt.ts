import CFB from 'cfb';

/** One slide's text from a legacy PowerPoint file, with its speaker notes. */
export interface PowerPointSlide {
  text: string;
  notes: string;
}

// Record types of the PowerPoint 97-2003 binary format ([MS-PPT] 2.13.24).
const RECORD = {
  document: 0x03e8,
  slide: 0x03ee,
  slideAtom: 0x03ef,
  notes: 0x03f0,
  slidePersistAtom: 0x03f3,
  textHeaderAtom: 0x0f9f,
  textCharsAtom: 0x0fa0,
  textBytesAtom: 0x0fa8,
  slideListWithText: 0x0ff0,
  userEditAtom: 0x0ff5,
  persistDirectoryAtom: 0x1772,
} as const;
const CONTAINER_VERSION = 0xf;
const HEADER_SIZE = 8;
// TextHeaderAtom types that hold a slide title ([MS-PPT] 2.13.33 TextTypeEnum: Tx_TYPE_TITLE, Tx_TYPE_CENTERTITLE).
const TITLE_TEXT_TYPES = new Set([0, 6]);
const SLIDE_LIST_INSTANCE = 0;
const NOTES_LIST_INSTANCE = 2;

interface RecordHeader {
  version: number;
  instance: number;
  type: number;
  length: number;
  /** Offset of the record's body within the stream. */
  body: number;
}

/** Thrown for files that are not a readable PowerPoint 97-2003 presentation. */
export class PowerPointFormatError extends Error {}

/** Reads slide text in presentation order: the slide list's text plus the text boxes drawn on each slide. */
export function readPowerPoint(bytes: Uint8Array): PowerPointSlide[] {
  const container = CFB.read(bytes, { type: 'buffer' });
  const stream = streamBytes(container, 'PowerPoint Document');
  const currentUser = streamBytes(container, 'Current User');
  const persist = readPersistDirectory(stream, readCurrentEditOffset(currentUser));
  const documentOffset = persist.offsets.get(persist.documentId);
  if (documentOffset === undefined) throw new PowerPointFormatError('the document record is missing');
  const lists = readSlideLists(stream, documentOffset);
  const notesById = new Map(
    (lists.get(NOTES_LIST_INSTANCE) ?? []).map((notes) => [notes.slideId, notes.persistId]),
  );
  return (lists.get(SLIDE_LIST_INSTANCE) ?? []).map(({ persistId, listText }) => {
    const slideOffset = persist.offsets.get(persistId);
    if (slideOffset === undefined) return { text: titleFirst(unique(listText)).join('\n'), notes: '' };
    const drawnText = collectText(stream, readHeader(stream, slideOffset));
    const notesOffset = persist.offsets.get(notesById.get(readNotesId(stream, slideOffset)) ?? -1);
    const notes = notesOffset === undefined ? [] : collectText(stream, readHeader(stream, notesOffset));
    return {
      text: titleFirst(unique([...listText, ...drawnText])).join('\n'),
      notes: unique(notes).join('\n'),
    };
  });
}

function streamBytes(container: CFB.CFB$Container, name: string): Buffer {
  const entry = CFB.find(container, name);
  if (!entry?.content) throw new PowerPointFormatError(`the "${name}" stream is missing`);
  return Buffer.from(entry.content as Uint8Array);
}

function readHeader(stream: Buffer, offset: number): RecordHeader {
  if (offset < 0 || offset + HEADER_SIZE > stream.length) {
    throw new PowerPointFormatError(`a record at offset ${offset} lies outside the stream`);
  }
  const versionAndInstance = stream.readUInt16LE(offset);
  const length = stream.readUInt32LE(offset + 4);
  if (offset + HEADER_SIZE + length > stream.length) {
    throw new PowerPointFormatError(`a record at offset ${offset} runs past the end of the stream`);
  }
  return {
    version: versionAndInstance & 0xf,
    instance: versionAndInstance >> 4,
    type: stream.readUInt16LE(offset + 2),
    length,
    body: offset + HEADER_SIZE,
  };
}

function* children(stream: Buffer, parent: RecordHeader): Generator<RecordHeader> {
  const end = parent.body + parent.length;
  for (let offset = parent.body; offset + HEADER_SIZE <= end; ) {
    const header = readHeader(stream, offset);
    yield header;
    offset = header.body + header.length;
  }
}

function readCurrentEditOffset(currentUser: Buffer): number {
  // CurrentUserAtom: record header, size (4 bytes), header token (4 bytes), then offsetToCurrentEdit.
  if (currentUser.length < 20) throw new PowerPointFormatError('the "Current User" stream is truncated');
  return currentUser.readUInt32LE(16);
}

/** Follows the chain of saved edits, newest first, so a newer location of an object wins. */
function readPersistDirectory(stream: Buffer, firstEdit: number) {
  const offsets = new Map<number, number>();
  let documentId: number | undefined;
  const visited = new Set<number>();
  for (let editOffset = firstEdit; editOffset !== 0 && !visited.has(editOffset); ) {
    visited.add(editOffset);
    const edit = readHeader(stream, editOffset);
    if (edit.type !== RECORD.userEditAtom)
      throw new PowerPointFormatError('the edit record is not where expected');
    // UserEditAtom: lastSlideIdRef, version, minor and major version (8 bytes), offsetLastEdit,
    // offsetPersistDirectory, docPersistIdRef.
    const previousEdit = stream.readUInt32LE(edit.body + 8);
    const directory = readHeader(stream, stream.readUInt32LE(edit.body + 12));
    documentId ??= stream.readUInt32LE(edit.body + 16);
    readPersistEntries(stream, directory, offsets);
    editOffset = previousEdit;
  }
  if (documentId === undefined) throw new PowerPointFormatError('no saved edit was found');
  return { offsets, documentId };
}

function readPersistEntries(stream: Buffer, directory: RecordHeader, offsets: Map<number, number>): void {
  const end = directory.body + directory.length;
  for (let position = directory.body; position + 4 <= end; ) {
    const entry = stream.readUInt32LE(position);
    // PersistDirectoryEntry: 20-bit first persist id, 12-bit count, then that many 4-byte offsets.
    const firstId = entry & 0xfffff;
    const count = entry >>> 20;
    position += 4;
    for (let index = 0; index < count && position + 4 <= end; index++, position += 4) {
      if (!offsets.has(firstId + index)) offsets.set(firstId + index, stream.readUInt32LE(position));
    }
  }
}

interface SlideListEntry {
  persistId: number;
  slideId: number;
  listText: string[];
}

/** The slide and notes lists, in presentation order, each entry with the placeholder text stored in the list. */
function readSlideLists(stream: Buffer, documentOffset: number): Map<number, SlideListEntry[]> {
  const document = readHeader(stream, documentOffset);
  if (document.type !== RECORD.document)
    throw new PowerPointFormatError('the document record is not where expected');
  const lists = new Map<number, SlideListEntry[]>();
  for (const list of children(stream, document)) {
    if (list.type !== RECORD.slideListWithText) continue;
    const entries = lists.get(list.instance) ?? [];
    lists.set(list.instance, entries);
    let titleNext = false;
    for (const record of children(stream, list)) {
      if (record.type === RECORD.slidePersistAtom) {
        // SlidePersistAtom: persistIdRef, flags, text count, then the slide (or notes) id.
        entries.push({
          persistId: stream.readUInt32LE(record.body),
          slideId: stream.readUInt32LE(record.body + 12),
          listText: [],
        });
      } else if (record.type === RECORD.textHeaderAtom) {
        titleNext = TITLE_TEXT_TYPES.has(stream.readUInt32LE(record.body));
      } else {
        const text = decodeTextAtom(stream, record);
        if (text !== undefined) entries.at(-1)?.listText.push(titleNext ? asHeading(text) : text);
      }
    }
  }
  return lists;
}

function readNotesId(stream: Buffer, slideOffset: number): number {
  const slide = readHeader(stream, slideOffset);
  for (const record of children(stream, slide)) {
    // SlideAtom: geometry (4 bytes), placeholder types (8 bytes), masterIdRef, then notesIdRef (a notes list slide id).
    if (record.type === RECORD.slideAtom && record.length >= 20) return stream.readUInt32LE(record.body + 16);
  }
  return 0;
}

/** Every text atom inside a slide or notes container, in drawing order (text boxes live in nested drawings). */
function collectText(stream: Buffer, container: RecordHeader): string[] {
  const texts: string[] = [];
  let titleNext = false;
  const visit = (parent: RecordHeader): void => {
    for (const record of children(stream, parent)) {
      if (record.version === CONTAINER_VERSION) {
        visit(record);
      } else if (record.type === RECORD.textHeaderAtom) {
        titleNext = TITLE_TEXT_TYPES.has(stream.readUInt32LE(record.body));
      } else {
        const text = decodeTextAtom(stream, record);
        if (text !== undefined) texts.push(titleNext ? asHeading(text) : text);
      }
    }
  };
  visit(container);
  return texts;
}

function decodeTextAtom(stream: Buffer, record: RecordHeader): string | undefined {
  const body = stream.subarray(record.body, record.body + record.length);
  let text: string;
  if (record.type === RECORD.textCharsAtom) text = body.toString('utf16le');
  else if (record.type === RECORD.textBytesAtom) text = body.toString('latin1');
  else return undefined;
  // PowerPoint ends paragraphs with CR; its vertical-tab line breaks become newlines in normalizeText.
  const cleaned = text.replace(/\r/g, '\n').trim();
  return cleaned || undefined;
}

function asHeading(text: string): string {
  // A title's line breaks (vertical tabs or CRs) would otherwise split the heading.
  return `# ${text.replace(/\s+/g, ' ')}`;
}

// A title drawn after the body text would otherwise open the slide's second half as a heading.
function titleFirst(texts: string[]): string[] {
  return [
    ...texts.filter((text) => text.startsWith('# ')),
    ...texts.filter((text) => !text.startsWith('# ')),
  ];
}

// Placeholder text can be stored both in the slide list and in the slide's own drawing.
function unique(texts: string[]): string[] {
  const seen = new Set<string>();
  return texts.filter((text) => {
    const key = text.replace(/^# /, '').replace(/\s+/g, ' ');
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
