/**
 * The column headers of a table whose first row names its columns, so that a cell is read with the header of its
 * column: "LGPL v3.0: Not viral like its GPL counterpart." says which licence is not viral, where the cell alone
 * does not. A form's table (a label and its value in each row) has no such row and is read as it is.
 */
import type { DomElement, DomNode } from './dom.ts';

/** A header row has at least this many cells: two columns are a label and its value... */
const HEADER_COLUMNS = 3;
/** ...each a name of at most this many words; a form's first row holds a label ("Deadline:") and its values. */
const HEADER_WORDS = 5;
const ROW_GROUPS = new Set(['THEAD', 'TBODY', 'TFOOT']);
const CELLS = new Set(['TD', 'TH']);

/**
 * For a table whose first row names its columns (all header cells, or at least three short names after a first cell
 * that is no label), each cell of
 * the later rows (but the first, which labels its row) and the header of its column. A row with more or fewer
 * cells than the header (a cell spanning columns) is read as it is.
 */
export function columnHeaders(table: DomElement): Map<DomElement, string> {
  const [header, ...body] = rowsOf(table);
  const labelled = new Map<DomElement, string>();
  if (!header || body.length === 0) return labelled;
  const names = cellsOf(header);
  const texts = names.map((cell) => (cell.textContent ?? '').replace(/\s+/g, ' ').trim());
  const named =
    names.every((cell) => cell.tagName.toUpperCase() === 'TH') ||
    (names.length >= HEADER_COLUMNS &&
      !texts[0]!.endsWith(':') &&
      texts.slice(1).every((text) => text !== '' && text.split(' ').length <= HEADER_WORDS));
  if (!named) return labelled;
  for (const row of body) {
    const cells = cellsOf(row);
    if (cells.length !== names.length) continue;
    cells.forEach((cell, column) => {
      if (column > 0 && texts[column]) labelled.set(cell, texts[column]!);
    });
  }
  return labelled;
}

function rowsOf(table: DomElement): DomElement[] {
  return elementsOf(table).flatMap((child) => {
    const tag = child.tagName.toUpperCase();
    if (tag === 'TR') return [child];
    return ROW_GROUPS.has(tag) ? elementsOf(child).filter((row) => row.tagName.toUpperCase() === 'TR') : [];
  });
}

function cellsOf(row: DomElement): DomElement[] {
  return elementsOf(row).filter((cell) => CELLS.has(cell.tagName.toUpperCase()));
}

function elementsOf(node: DomNode): DomElement[] {
  return [...node.childNodes].filter((child): child is DomElement => child.nodeType === 1);
}
