/**
 * The column headers of a table whose first row names its columns, so that a cell is read with the header of its
 * column: "LGPL v3.0: Not viral like its GPL counterpart." says which licence is not viral, where the cell alone
 * does not. A form's table (a label and its value in each row) has no such row and is read as it is.
 */
import type { DomElement, DomNode } from './dom.ts';

export const CELL_ELEMENTS = new Set(['TD', 'TH']);

/** A header row has at least this many cells: two columns are a label and its value... */
const HEADER_COLUMNS = 3;
/** ...each a name of at most this many words; a form's first row holds a label ("Deadline:") and its values. */
const HEADER_WORDS = 5;
const ROW_GROUPS = new Set(['THEAD', 'TBODY', 'TFOOT']);

/**
 * For a table whose first row names its columns, each cell of the later rows (but the first, which labels its row)
 * and the header of its column, as `textOf` reads the header cell. The first row names its columns when its cells
 * are header cells, or when there are at least three, each a short name with a letter in it, after a first cell
 * that is no label. Rows of header cells under it, and rows with a cell spanning columns, are read as they are; so
 * is the whole table when a cell spans rows or a header spans columns, as cells no longer stand under their header.
 */
export function columnHeaders(
  table: DomElement,
  textOf: (cell: DomElement) => string,
): Map<DomElement, string> {
  const [header, ...body] = rowsOf(table);
  const labelled = new Map<DomElement, string>();
  if (!header || body.length === 0) return labelled;
  const names = cellsOf(header);
  if ([header, ...body].some((row) => cellsOf(row).some((cell) => spans(cell, 'rowspan')))) return labelled;
  if (names.some((cell) => spans(cell, 'colspan'))) return labelled;
  // A table in a header cell names no column, and reading its text would read its own headers again, and theirs:
  // time doubling with each table nested so.
  if (names.some(holdsTable)) return labelled;
  const texts = names.map(textOf);
  if (!namesColumns(names, texts)) return labelled;
  for (const row of body) {
    const cells = cellsOf(row);
    if (
      cells.length !== names.length ||
      cells.some((cell) => spans(cell, 'colspan')) ||
      cells.every(isHeaderCell)
    )
      continue;
    cells.forEach((cell, column) => {
      if (column > 0 && texts[column]) labelled.set(cell, texts[column]!);
    });
  }
  return labelled;
}

function namesColumns(names: DomElement[], texts: string[]): boolean {
  if (names.every(isHeaderCell)) return true;
  return (
    names.length >= HEADER_COLUMNS &&
    !texts[0]!.endsWith(':') &&
    texts.slice(1).every((text) => /\p{L}/u.test(text) && text.split(' ').length <= HEADER_WORDS)
  );
}

function isHeaderCell(cell: DomElement): boolean {
  return cell.tagName.toUpperCase() === 'TH';
}

function spans(cell: DomElement, attribute: 'rowspan' | 'colspan'): boolean {
  return Number(cell.getAttribute(attribute) ?? 1) > 1;
}

/**
 * Whether a table is inside the cell. The search stops at the first, which a table nested in a header cell holds
 * among its first elements: nested tables are searched through once, not once per level.
 */
function holdsTable(cell: DomElement): boolean {
  const pending: DomElement[] = elementsOf(cell).reverse();
  for (let element = pending.pop(); element !== undefined; element = pending.pop()) {
    if (element.tagName.toUpperCase() === 'TABLE') return true;
    pending.push(...elementsOf(element).reverse());
  }
  return false;
}

function rowsOf(table: DomElement): DomElement[] {
  return elementsOf(table).flatMap((child) => {
    const tag = child.tagName.toUpperCase();
    if (tag === 'TR') return [child];
    return ROW_GROUPS.has(tag) ? elementsOf(child).filter((row) => row.tagName.toUpperCase() === 'TR') : [];
  });
}

function cellsOf(row: DomElement): DomElement[] {
  return elementsOf(row).filter((cell) => CELL_ELEMENTS.has(cell.tagName.toUpperCase()));
}

function elementsOf(node: DomNode): DomElement[] {
  return [...node.childNodes].filter((child): child is DomElement => child.nodeType === 1);
}
