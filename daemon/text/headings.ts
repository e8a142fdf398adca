/** Markdown's headings (`## Usage`), as the chunker, the slide reader and the responder read them. */

/** A Markdown heading: its level (the number of #'s) and its text. */
export interface Heading {
  level: number;
  text: string;
}

/** A heading's mark, as a pattern's source: one to six #'s and the space after them. */
export const HEADING_MARK_SOURCE = String.raw`#{1,6}[ \t]+`;
/** A line opening with a heading's mark. */
export const HEADING_MARK = new RegExp(`^${HEADING_MARK_SOURCE}`);
/** The marks of a text's headings of levels 1 to 5. */
const DEEPENED_MARKS = /^(#{1,5})(?=[ \t])/gm;

/**
 * The heading a line is, its text without the #'s that may close it after a space ("## Usage ##", but "# C#" is
 * "C#"); none for a mark without text. Read without a pattern spanning the text: one with a lazy text and optional
 * closing #'s backtracks in time quadratic in a long line of "# # # ...".
 */
export function markdownHeading(line: string): Heading | undefined {
  const mark = HEADING_MARK.exec(line);
  if (!mark) return undefined;
  const text = withoutClosingMarks(line.slice(mark[0].length).trimEnd());
  return text === '' ? undefined : { level: mark[0].trimEnd().length, text };
}

/** A heading's text without the run of #'s closing it, which a space or tab parts from it or which is all of it. */
function withoutClosingMarks(text: string): string {
  let end = text.length;
  while (end > 0 && text[end - 1] === '#') end--;
  if (end === text.length) return text;
  return end === 0 || text[end - 1] === ' ' || text[end - 1] === '\t' ? text.slice(0, end).trimEnd() : text;
}

/** A text with each of its headings a level deeper, as sections under a title; one of level 6 stays at 6. */
export function withDeeperHeadings(text: string): string {
  return text.replace(DEEPENED_MARKS, '#$1');
}
