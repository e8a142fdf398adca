/**
 * Whether a PDF page is read from its text layer or recognised from its picture. Pure: the facts come from
 * pdf.js (see pdf-ocr.ts), so the rule is tested on its own.
 */

/** One square inch, in PDF points squared. */
const SQUARE_INCH = 72 * 72;

/**
 * A text layer with at least this many characters (whitespace aside) per square inch of page is kept whatever
 * else the page holds. A page of printed prose has 20 to 40; a scanned page carrying only a stamped page number,
 * a fax header or a Bates number as text, well under 1.
 */
const MIN_CHARACTERS_PER_SQUARE_INCH = 1;

/** A page whose text layer falls short is recognised when images cover at least this share of it. */
const MIN_IMAGE_COVERAGE = 0.5;

/**
 * The most characters a page can have and still fall short: the density's threshold on an A3 page. A page with
 * more is kept without opening it, so a PDF of text pages never pays for a look at its drawing.
 */
export const ALWAYS_ENOUGH_CHARACTERS = 200;

export interface PageFacts {
  /** Characters of the page's text layer, whitespace aside. */
  characters: number;
  /** The page's size in points. */
  width: number;
  height: number;
  /** The share of the page's area that images are drawn over, 0 to 1. */
  imageCoverage: number;
}

/**
 * Characters a text layer has, whitespace aside, counting no further than `limit`: deciding that a page has
 * enough text reads only its first few hundred characters, so it costs a text PDF nothing it would notice.
 */
export function countCharacters(text: string, limit = Number.POSITIVE_INFINITY): number {
  let count = 0;
  for (let index = 0; index < text.length && count < limit; index++) {
    if (!isWhitespace(text.charCodeAt(index))) count++;
  }
  return count;
}

/** What `String.prototype.trim` removes, by UTF-16 code unit. */
function isWhitespace(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  if (code < 0xa0) return false;
  return (
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

/** The text layer has enough text for the page's size to be what the page says. */
export function hasUsableTextLayer(page: Omit<PageFacts, 'imageCoverage'>): boolean {
  if (page.characters >= ALWAYS_ENOUGH_CHARACTERS) return true;
  const squareInches = (Math.abs(page.width) * Math.abs(page.height)) / SQUARE_INCH;
  return page.characters >= MIN_CHARACTERS_PER_SQUARE_INCH * squareInches;
}

/**
 * The page is recognised: its text layer falls short, and most of it is a picture. A page with little text and
 * no large image (a title page, a drawing, a blank page) has nothing more to read.
 */
export function needsRecognition(page: PageFacts): boolean {
  return !hasUsableTextLayer(page) && page.imageCoverage >= MIN_IMAGE_COVERAGE;
}

/** pdf.js's operator list of a page: the drawing operations, by number, and their arguments. */
export interface OperatorList {
  fnArray: ArrayLike<number>;
  argsArray: ArrayLike<unknown>;
}

/** The numbers pdf.js gives the operations that move the drawing or paint an image (its `OPS`). */
export interface ImageOperations {
  save: number;
  restore: number;
  transform: number;
  paintFormXObjectBegin: number;
  paintFormXObjectEnd: number;
  paintImageXObject: number;
  paintInlineImageXObject: number;
  paintImageMaskXObject: number;
  paintImageXObjectRepeat: number;
  paintImageMaskXObjectRepeat: number;
  paintImageMaskXObjectGroup: number;
}

type Matrix = readonly [number, number, number, number, number, number];
const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];

/**
 * The share of the page that images are painted over, from 0 to 1. An image fills the unit square of the
 * transformation in force, so its area is that matrix's determinant; the transformations are followed through
 * saves, restores and form XObjects. Overlaps count twice and clipping is ignored: the figure only has to tell
 * a page that is a picture from one that holds some.
 */
export function imageCoverage(
  operators: OperatorList,
  operations: ImageOperations,
  pageArea: number,
): number {
  if (!(pageArea > 0)) return 0;
  const stack: Matrix[] = [];
  let matrix = IDENTITY;
  let painted = 0;
  for (let index = 0; index < operators.fnArray.length; index++) {
    const operation = operators.fnArray[index];
    const args = (operators.argsArray[index] ?? []) as unknown[];
    switch (operation) {
      case operations.save:
        stack.push(matrix);
        break;
      case operations.restore:
      case operations.paintFormXObjectEnd:
        matrix = stack.pop() ?? IDENTITY;
        break;
      case operations.transform:
        if (isMatrix(args)) matrix = multiply(args, matrix);
        break;
      case operations.paintFormXObjectBegin: {
        stack.push(matrix);
        const form = args[0];
        if (isMatrix(form)) matrix = multiply(form, matrix);
        break;
      }
      case operations.paintImageXObject:
      case operations.paintInlineImageXObject:
      case operations.paintImageMaskXObject:
        painted += area(matrix);
        break;
      case operations.paintImageXObjectRepeat: {
        const [, scaleX, scaleY, positions] = args as [unknown, number, number, ArrayLike<number>];
        painted += (positions.length / 2) * Math.abs(scaleX * scaleY) * area(matrix);
        break;
      }
      case operations.paintImageMaskXObjectRepeat: {
        const [, scaleX, skewX, skewY, scaleY, positions] = args as [
          unknown,
          number,
          number,
          number,
          number,
          ArrayLike<number>,
        ];
        painted += (positions.length / 2) * Math.abs(scaleX * scaleY - skewX * skewY) * area(matrix);
        break;
      }
      case operations.paintImageMaskXObjectGroup: {
        const [images] = args as [{ transform?: unknown }[]];
        for (const image of images ?? []) {
          if (isMatrix(image.transform)) painted += area(multiply(image.transform, matrix));
        }
        break;
      }
    }
  }
  return Math.min(1, painted / pageArea);
}

/** `first` applied, then `second`, in PDF's row-vector convention. */
function multiply(first: Matrix, second: Matrix): Matrix {
  const [a, b, c, d, e, f] = first;
  const [a2, b2, c2, d2, e2, f2] = second;
  return [
    a * a2 + b * c2,
    a * b2 + b * d2,
    c * a2 + d * c2,
    c * b2 + d * d2,
    e * a2 + f * c2 + e2,
    e * b2 + f * d2 + f2,
  ];
}

function area(matrix: Matrix): number {
  return Math.abs(matrix[0] * matrix[3] - matrix[1] * matrix[2]);
}

function isMatrix(value: unknown): value is Matrix {
  return (
    (Array.isArray(value) || ArrayBuffer.isView(value)) &&
    (value as ArrayLike<unknown>).length === 6 &&
    Array.from(value as ArrayLike<unknown>).every((entry) => typeof entry === 'number')
  );
}
