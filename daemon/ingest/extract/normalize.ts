// Control characters other than tab and newline confuse tokenizers and terminals; NUL also breaks LanceDB strings.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\ufeff\ufffe\uffff]/g;
// Word and PDF text use vertical tab, form feed and the Unicode separators as line or page breaks.
// biome-ignore lint/suspicious/noControlCharactersInRegex: these control characters are line breaks.
const LINE_BREAKS = /\r\n?|[\u000b\u000c\u0085\u2028\u2029]/g;
// Every horizontal space (tab, no-break space, the Unicode spaces) counts as one word gap.
const HORIZONTAL_SPACE_RUN = /[\t \u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]+/g;

/** Text as every extractor returns it: LF line ends, no control characters, one space between words, at most one blank line between paragraphs. */
export function normalizeText(text: string): string {
  return text
    .replace(LINE_BREAKS, '\n')
    .replace(CONTROL_CHARACTERS, '')
    .split('\n')
    .map((line) => line.replace(HORIZONTAL_SPACE_RUN, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
