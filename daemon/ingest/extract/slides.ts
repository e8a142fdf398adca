import { HEADING_MARK, withDeeperHeadings } from '../../text/headings.ts';
import type { ExtractedDocument, ExtractedPage } from '../types.ts';
import { ENCRYPTED_DETAIL, ExtractionError } from './errors.ts';
import { readPowerPoint } from './ppt.ts';

// officeparser's node union is wide; the reader needs only these members of it.
interface OfficeNode {
  type: string;
  text?: string;
  children?: OfficeNode[];
  notes?: OfficeNode[];
  metadata?: { level?: number; slideNumber?: number };
}

const DAMAGED = 'the file is damaged or truncated; open it in PowerPoint, save it again and re-upload it';

/** PowerPoint 2007+: one page per slide, its speaker notes after the slide text. */
export async function readPresentationXml(bytes: Uint8Array, fileName: string): Promise<ExtractedDocument> {
  let slides: OfficeNode[];
  try {
    // Loaded here so that reading a .ppt does not pay for it.
    const { OfficeParser } = await import('officeparser');
    const ast = await OfficeParser.parseOffice(Buffer.from(bytes), { ignoreSlideMasters: true });
    slides = (ast.content as OfficeNode[]).filter((node) => node.type === 'slide');
  } catch (error) {
    if (/PASSWORD|DECRYPTION/.test(officeErrorCode(error))) {
      throw ExtractionError.cannotRead(fileName, 'encrypted', ENCRYPTED_DETAIL, error);
    }
    throw ExtractionError.cannotRead(fileName, 'corrupt', DAMAGED, error);
  }
  return asDeck(
    slides.map((slide, index): Slide => {
      const page = slide.metadata?.slideNumber ?? index + 1;
      const notes = (slide.notes ?? [])
        .flatMap((note) => note.children ?? [])
        .filter((node) => !isSlideNumber(node, page));
      return { page, text: render(slide.children ?? []), notes: render(notes) };
    }),
  );
}

/** PowerPoint 97-2003, read with our own record reader: no maintained npm package reads it. */
export function readPresentation(bytes: Uint8Array, fileName: string): ExtractedDocument {
  try {
    return asDeck(readPowerPoint(bytes).map((slide, index) => ({ page: index + 1, ...slide })));
  } catch (error) {
    throw ExtractionError.cannotRead(fileName, 'corrupt', DAMAGED, error);
  }
}

interface Slide {
  page: number;
  text: string;
  notes: string;
}

/** One page per slide, its speaker notes after its text, the slides under the deck's title (`underDeckTitle`). */
function asDeck(slides: Slide[]): ExtractedDocument {
  const texts = underDeckTitle(slides.map((slide) => slide.text));
  return {
    pages: slides.map(
      (slide, index): ExtractedPage => ({
        page: slide.page,
        text: withNotes(texts[index]!, slide.notes),
      }),
    ),
  };
}

/**
 * The slides' texts under the deck's title: the first slide's title, or that slide's first line when short and
 * without a final stop (a title slide's text, which few decks mark as a title placeholder), becomes the document's
 * heading, and the other slides' titles the sections under it. Every slide's passages then carry what the deck is
 * about: "Which colours should the Music Sound Interpreter avoid?" is answered by a slide that names only "calming
 * colors", in a deck whose title slide is "Music Sound Interpreter".
 */
function underDeckTitle(texts: string[]): string[] {
  const [first, ...others] = texts;
  if (first === undefined) return texts;
  const lines = first.split('\n');
  const titleAt = lines.findIndex((line) => HEADING_MARK.test(line));
  const title = titleAt >= 0 ? lines[titleAt]!.replace(HEADING_MARK, '') : lines[0]!;
  if (titleAt < 0 && !isTitleLine(title)) return texts;
  const opened = [`# ${title}`, ...lines.filter((_, index) => index !== Math.max(titleAt, 0))];
  return [opened.join('\n'), ...others.map(withDeeperHeadings)];
}

/** A title slide's title is a few words; a longer first line, or a list's item, is the slide's text. */
const TITLE_WORDS = 12;

function isTitleLine(line: string): boolean {
  const trimmed = line.trim();
  return (
    trimmed !== '' &&
    trimmed.split(/\s+/).length <= TITLE_WORDS &&
    !/[.!?:;,]$/.test(trimmed) &&
    !/^[-*•]\s/.test(trimmed)
  );
}

function withNotes(text: string, notes: string): string {
  return notes.trim() ? `${text}\n\nNotes:\n${notes}` : text;
}

function officeErrorCode(error: unknown): string {
  const issue = (error as { officeIssue?: { code?: unknown } } | undefined)?.officeIssue;
  return typeof issue?.code === 'string' ? issue.code : '';
}

// Notes pages repeat the slide number in a placeholder of their own.
function isSlideNumber(node: OfficeNode, page: number): boolean {
  return (node.text ?? '').trim() === String(page);
}

function render(nodes: OfficeNode[]): string {
  return nodes
    .map(renderNode)
    .filter((text) => text.trim())
    .join('\n');
}

function renderNode(node: OfficeNode): string {
  switch (node.type) {
    case 'heading':
      return `${'#'.repeat(Math.min(Math.max(node.metadata?.level ?? 1, 1), 6))} ${flatText(node)}`;
    case 'list':
      return `- ${flatText(node)}`;
    case 'row':
      return (node.children ?? []).map(flatText).join(' | ');
    case 'paragraph':
    case 'text':
    case 'cell':
      return flatText(node);
    case 'image':
      return '';
    default:
      return node.children ? render(node.children) : (node.text ?? '');
  }
}

function flatText(node: OfficeNode): string {
  if (node.text !== undefined) return node.text;
  return (node.children ?? []).map(flatText).join(' ');
}
