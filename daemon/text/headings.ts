/** Markdown's headings (`## Usage`), as the chunker, the slide reader and the responder read them. */

/** A Markdown heading: its level (the number of #'s) and its text. */
export interface Heading {
  level: number;
  text: string;
}

/** A heading's mark: one to six #'s and the space after them. */
export const HEADING_MARK = /^#{1,6}[ \t]+/;

const HEADING_LINE = /^(#{1,6})[ \t]+(.*?)[ \t#]*$/;

/** The heading a line is, its text without the #'s that may close it; none for a mark without text. */
export function markdownHeading(line: string): Heading | undefined {
  const match = HEADING_LINE.exec(line);
  const text = match?.[2]?.trim();
  return match && text ? { level: match[1]!.length, text } : undefined;
}
