/**
 * A PDF page's text in reading order, from where pdf.js places each run of text. pdf.js gives runs in the order
 * the page's content draws them, which is mostly, but not always, the reading order: a caption, a table or a
 * footnote drawn in the middle of a column cuts its sentences in two. A page set in two columns is read as a
 * paper is: its title block, the left column, the right column, then what spans both columns below the title
 * (captions, wide tables). Paragraphs are kept apart by a blank line where the gap between lines is clearly wider
 * than the page's usual line spacing.
 */

/** A run of text as pdf.js places it: `x` and `y` of its baseline's start in page units, `y` growing upwards. */
export interface PlacedText {
  text: string;
  x: number;
  y: number;
  width: number;
  /** The font's height, in page units. */
  height: number;
}

interface Line {
  text: string;
  x0: number;
  x1: number;
  y: number;
  height: number;
  /** Position in drawing order. */
  order: number;
}

type Column = 'left' | 'right' | 'both';

/** Gutter margin, as a share of the page width, that a line must cross to span both columns. */
const GUTTER_MARGIN = 0.02;
/** Each column must hold at least this share of the page's text for the page to be read as two columns. */
const COLUMN_SHARE = 0.2;
/** Pieces of text side by side on one baseline that make a table row rather than two columns' lines. */
const TABLE_CELLS = 3;
/** A gap between lines this many times the page's usual line spacing starts a new paragraph. */
const PARAGRAPH_GAP = 1.6;

export function layoutPageText(items: PlacedText[], pageWidth: number): string {
  const lines = toLines(items);
  if (lines.length === 0) return '';
  const columns = lines.map((line) => columnOf(line, lines, pageWidth));
  const ordered = isTwoColumns(lines, columns)
    ? readByColumns(lines, columns)
    : lines.map((line) => ({ line, column: 'both' as Column }));
  return joinLines(ordered);
}

/**
 * Runs that follow each other on one baseline, without a gap wider than a column gutter, make a line; drawing
 * order is kept within it (a run drawn to the left of the one before starts a new line).
 */
function toLines(items: PlacedText[]): Line[] {
  const lines: Line[] = [];
  let current: Line | undefined;
  for (const item of items) {
    const blank = item.text.trim() === '';
    const height = item.height > 0 ? item.height : (current?.height ?? 10);
    // Within a line's height either way: sub- and superscripts sit off the baseline in a smaller font.
    const sameLine =
      current !== undefined &&
      Math.abs(item.y - current.y) <= 0.6 * Math.max(2, height, current.height) &&
      item.x >= current.x1 - height &&
      item.x - current.x1 <= 2 * Math.max(height, current.height);
    if (blank) {
      if (sameLine && current && !/\s$/.test(current.text)) current.text += ' ';
      continue;
    }
    if (sameLine && current) {
      const gap = item.x - current.x1;
      if (
        gap > 0.2 * Math.max(height, current.height) &&
        !/\s$/.test(current.text) &&
        !/^\s/.test(item.text)
      ) {
        current.text += ' ';
      }
      current.text += item.text;
      current.x1 = Math.max(current.x1, item.x + item.width);
      current.height = Math.max(current.height, height);
      continue;
    }
    current = {
      text: item.text,
      x0: item.x,
      x1: item.x + item.width,
      y: item.y,
      height,
      order: lines.length,
    };
    lines.push(current);
  }
  for (const line of lines) line.text = line.text.trim();
  return lines.filter((line) => line.text !== '');
}

/** Which column a line is in; 'both' when it crosses the gutter, or is a cell of a table row. */
function columnOf(line: Line, lines: Line[], pageWidth: number): Column {
  const middle = pageWidth / 2;
  const margin = GUTTER_MARGIN * pageWidth;
  if (line.x0 < middle - margin && line.x1 > middle + margin) return 'both';
  // A column has one line on a baseline; three or more pieces of text side by side are a table's row.
  const sideBySide = lines.filter((other) => Math.abs(other.y - line.y) <= 0.3 * line.height).length;
  if (sideBySide >= TABLE_CELLS) return 'both';
  return (line.x0 + line.x1) / 2 < middle ? 'left' : 'right';
}

function isTwoColumns(lines: Line[], columns: Column[]): boolean {
  const characters = { left: 0, right: 0, both: 0 };
  lines.forEach((line, index) => {
    characters[columns[index]!] += line.text.length;
  });
  const total = characters.left + characters.right + characters.both;
  return characters.left >= COLUMN_SHARE * total && characters.right >= COLUMN_SHARE * total;
}

/**
 * Read as the page is set, by bands: what spans both columns (a caption, a wide table, a heading across the page)
 * divides the page into bands, and each band is read left column then right column, in drawing order. What spans
 * both columns above all column text (the title block) comes first; the rest of it (captions, tables) comes after
 * the columns, so a sentence that runs from one band into the next is not cut by a caption between them.
 */
function readByColumns(lines: Line[], columns: Column[]): { line: Line; column: Column }[] {
  const spanning = lines.filter((_, index) => columns[index] === 'both');
  const top = Math.max(
    ...lines.filter((_, index) => columns[index] !== 'both').map((line) => line.y + 0.5 * line.height),
  );
  const cuts = spanning.filter((line) => line.y <= top).map((line) => line.y);
  const bandOf = (line: Line) => cuts.filter((cut) => cut > line.y).length;
  const ordered = spanning.filter((line) => line.y > top).map((line) => ({ line, column: 'both' as Column }));
  for (let band = 0; band <= cuts.length; band++) {
    for (const column of ['left', 'right'] as const) {
      lines.forEach((line, index) => {
        if (columns[index] === column && bandOf(line) === band) ordered.push({ line, column });
      });
    }
  }
  for (const line of spanning.filter((candidate) => candidate.y <= top))
    ordered.push({ line, column: 'both' });
  return ordered;
}

/**
 * Lines in order, one per line; a blank line where a column's lines are far apart (a new paragraph), and around
 * lines spanning both columns of a two-column page. The move from the foot of one column to the head of the next
 * is a plain line break: a sentence often runs on across it.
 */
function joinLines(ordered: { line: Line; column: Column }[]): string {
  const spacing = usualSpacing(ordered);
  let text = '';
  ordered.forEach(({ line, column }, index) => {
    if (index === 0) {
      text = line.text;
      return;
    }
    const previous = ordered[index - 1]!;
    const gap = previous.line.y - line.y;
    // Against the usual spacing, or this pair's own font size where it is larger (a title's lines).
    const lineSpacing = Math.max(spacing, 1.2 * Math.max(line.height, previous.line.height));
    const paragraph =
      previous.column === column
        ? gap > PARAGRAPH_GAP * lineSpacing
        : column === 'both' || previous.column === 'both';
    text += (paragraph ? '\n\n' : '\n') + line.text;
  });
  return text;
}

/** The median gap between consecutive lines of one column, going down the page. */
function usualSpacing(ordered: { line: Line; column: Column }[]): number {
  const gaps: number[] = [];
  for (let index = 1; index < ordered.length; index++) {
    const previous = ordered[index - 1]!;
    const current = ordered[index]!;
    const gap = previous.line.y - current.line.y;
    if (previous.column === current.column && gap > 0) gaps.push(gap);
  }
  if (gaps.length === 0) return Number.POSITIVE_INFINITY;
  gaps.sort((left, right) => left - right);
  return gaps[Math.floor((gaps.length - 1) / 2)]!;
}
