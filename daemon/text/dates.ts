/**
 * The calendar dates a text names, as numbers that sort as the dates do (year × 10,000 + month × 100 + day; a
 * month or day left unsaid counts as 0), so the earliest and latest a document mentions can be told apart.
 * answer-kind.ts has its own patterns for a date as an answer, fitted with the sentence model: they find one,
 * these read its value.
 */

/** Which end of a document's dates a question asks for: where its records begin, or their newest. */
export type DateExtent = 'earliest' | 'latest';

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'] as const;
const MONTH_NAME =
  '(January|February|March|April|May|June|July|August|September|October|November|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept|Sep|Oct|Nov|Dec)\\.?';
/** Years a document plausibly dates itself by; a bare number outside them is a count, a code or an id. */
const YEAR = '(1[5-9]\\d\\d|20\\d\\d)';
/** Not part of a longer token: "TIKA-1139", "4.0.2010" and "1999/x" are not years. */
const ALONE_BEFORE = '(?<![\\w.\\-/])';
const ALONE_AFTER = '(?![\\w\\-/]|\\.\\d)';
const DASH = '[-–]';

const monthNumber = (name: string): number => MONTHS.indexOf(name.slice(0, 3).toLowerCase() as never) + 1;

/** The date's sortable number, or none when its month or day cannot be one. */
function dateNumber(year: string, month: number, day: number): number | undefined {
  const valid = month >= 0 && month <= 12 && day >= 0 && day <= 31 && (day === 0 || month > 0);
  return valid ? Number(year) * 10_000 + month * 100 + day : undefined;
}

/**
 * Which number of a slash date ("05/11/2007") is the month. A document keeps to one order: month first, as in the
 * United States, unless its dates show otherwise (slashOrderOf).
 */
export type SlashOrder = 'month-first' | 'day-first';

const SLASH_DATE = new RegExp(`${ALONE_BEFORE}(\\d{1,2})/(\\d{1,2})/${YEAR}${ALONE_AFTER}`, 'g');

/**
 * A date whose first number cannot be a month (27/12/2007) is day-first whatever the order; one whose second
 * cannot be (12/27/2007), month-first.
 */
function readsDayFirst(first: number, second: number, order: SlashOrder): boolean {
  if (first > 12) return true;
  if (second > 12) return false;
  return order === 'day-first';
}

/**
 * The order of a document's slash dates: day-first when more of them can only be read day first (27/12/2007) than
 * only month first (12/27/2007), so its "05/11/2007" is the 5th of November.
 */
export function slashOrderOf(texts: Iterable<string>): SlashOrder {
  let dayFirst = 0;
  let monthFirst = 0;
  for (const text of texts) {
    for (const match of text.matchAll(SLASH_DATE)) {
      const [first, second] = [Number(match[1]), Number(match[2])];
      if (first > 12 && second <= 12) dayFirst++;
      else if (second > 12 && first <= 12) monthFirst++;
    }
  }
  return dayFirst > monthFirst ? 'day-first' : 'month-first';
}

type ReadDates = (match: RegExpExecArray, order: SlashOrder) => (number | undefined)[];

/** Each form once, most specific first: a span a form has read is not read again by a vaguer one. */
const FORMS: readonly (readonly [RegExp, ReadDates])[] = [
  [
    // A time may follow (2024-03-05T10:00Z).
    new RegExp(`${ALONE_BEFORE}${YEAR}-(\\d{2})-(\\d{2})(?!\\d)`, 'g'),
    (m) => [Number(m[3]) > 0 ? dateNumber(m[1]!, Number(m[2]), Number(m[3])) : undefined],
  ],
  [
    SLASH_DATE,
    (m, order) => {
      const [first, second] = [Number(m[1]), Number(m[2])];
      const [month, day] = readsDayFirst(first, second, order) ? [second, first] : [first, second];
      return [month > 0 && day > 0 ? dateNumber(m[3]!, month, day) : undefined];
    },
  ],
  [
    new RegExp(`\\b${MONTH_NAME} (\\d{1,2})(?:st|nd|rd|th)?,? ${YEAR}\\b`, 'gi'),
    (m) => [Number(m[2]) > 0 ? dateNumber(m[3]!, monthNumber(m[1]!), Number(m[2])) : undefined],
  ],
  [
    new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)? (?:of )?${MONTH_NAME},? ${YEAR}\\b`, 'gi'),
    (m) => [Number(m[1]) > 0 ? dateNumber(m[3]!, monthNumber(m[2]!), Number(m[1])) : undefined],
  ],
  [new RegExp(`\\b${MONTH_NAME},? ${YEAR}\\b`, 'gi'), (m) => [dateNumber(m[2]!, monthNumber(m[1]!), 0)]],
  // A span of years names both ends ("1850–1920", "© 2007-2024").
  [
    new RegExp(`${ALONE_BEFORE}${YEAR}\\s?${DASH}\\s?${YEAR}${ALONE_AFTER}`, 'g'),
    (m) => [dateNumber(m[1]!, 0, 0), dateNumber(m[2]!, 0, 0)],
  ],
  [new RegExp(`${ALONE_BEFORE}${YEAR}${ALONE_AFTER}`, 'g'), (m) => [dateNumber(m[1]!, 0, 0)]],
];

/** The dates a text names, in no particular order; its slash dates read in `order`. */
export function datesIn(text: string, order: SlashOrder = 'month-first'): number[] {
  const taken: [number, number][] = [];
  const found: number[] = [];
  for (const [pattern, read] of FORMS) {
    for (const match of text.matchAll(pattern)) {
      const start = match.index;
      const end = start + match[0].length;
      if (taken.some(([from, to]) => start < to && end > from)) continue;
      const dates = read(match as RegExpExecArray, order).filter((date) => date !== undefined);
      if (dates.length === 0) continue;
      taken.push([start, end]);
      found.push(...dates);
    }
  }
  return found;
}

/**
 * The item naming the date furthest towards `extent` (the oldest, or the newest), with that date and the order
 * the items' slash dates were read in; the first of those naming the same date; none when no item names a date.
 * The items are one document's: their slash dates keep one order. Where any item names a month, bare years are
 * left out: a number such as "entry 1501" reads as a year too, and a document dating its entries by day does not
 * date them by year.
 */
export function furthestDated<T>(
  items: readonly T[],
  textOf: (item: T) => string,
  extent: DateExtent,
): { item: T; date: number; order: SlashOrder } | undefined {
  const order = slashOrderOf(items.map(textOf));
  const dated = items.map((item) => ({ item, dates: datesIn(textOf(item), order) }));
  const byMonth = dated.some(({ dates }) => dates.some(namesMonth));
  const sign = extent === 'earliest' ? -1 : 1;
  let furthest: { item: T; date: number; order: SlashOrder } | undefined;
  for (const { item, dates } of dated) {
    const counted = byMonth ? dates.filter(namesMonth) : dates;
    if (counted.length === 0) continue;
    const date = sign * Math.max(...counted.map((date) => sign * date));
    if (!furthest || sign * date > sign * furthest.date) furthest = { item, date, order };
  }
  return furthest;
}

const namesMonth = (date: number): boolean => Math.floor(date / 100) % 100 > 0;
