import type { SourceContent, SourceType } from '../../src/api/sources.ts';
import type { Lane } from './schema.ts';

/** A `urls` source's content is a list, stored as JSON; every other type's is one string, stored as it is. */
export function encodeContent(source: SourceContent): string {
  return source.type === 'urls' ? JSON.stringify(source.content) : source.content;
}

export function decodeContent(type: SourceType, stored: string): SourceContent {
  if (type !== 'urls') return { type, content: stored };
  const urls: string[] = JSON.parse(stored);
  return { type, content: urls };
}

/** Only the type and content of a value that has more (a request's body): a record spread from it gets nothing else. */
export function contentOf(source: SourceContent): SourceContent {
  if (source.type === 'urls') return { type: source.type, content: source.content };
  return { type: source.type, content: source.content };
}

/** The uploaded file a source reads, if it reads one: a file source's content is a file id or a file's URL. */
export function uploadedFileId(source: SourceContent): string | undefined {
  return source.type === 'file' && !source.content.startsWith('http') ? source.content : undefined;
}

/** Text and uploaded files are read locally; everything else waits on other servers. */
export function laneOf(source: SourceContent): Lane {
  return source.type === 'text' || uploadedFileId(source) !== undefined ? 'local' : 'web';
}
