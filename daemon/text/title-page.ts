/** A document's title page: the title slide a deck opens with, its title, speaker, venue and outline. */
import { HEADING_MARK, markdownHeading } from './headings.ts';
import { FENCE } from './sentences.ts';
import { wordCount } from './words.ts';

/**
 * The most words of a title page, its title's among them. A deck's title slide holds fewer ("# ROOT - Based
 * Analysis at CDF", its outline, its speaker, "For the OSU Group and CDF Root2001 Workshop June 14, 2001"); a
 * read-me's opening section runs longer.
 */
const TITLE_PAGE_WORDS = 60;

/**
 * The title page a document's opening text is: a heading of the first level and the lines under it up to the next
 * heading, when they are few (`TITLE_PAGE_WORDS`) and hold no fenced code, which a title page never does. The caller
 * passes the text of a source's first chunk.
 */
export function titlePage(text: string): string | undefined {
  const [title = '', ...rest] = text.trimStart().split('\n');
  if (markdownHeading(title)?.level !== 1) return undefined;
  const lines = [title];
  for (const line of rest) {
    if (HEADING_MARK.test(line)) break;
    if (FENCE.test(line)) return undefined;
    lines.push(line);
  }
  const page = lines.join('\n').trimEnd();
  return wordCount(page.replace(HEADING_MARK, '')) <= TITLE_PAGE_WORDS ? page : undefined;
}
