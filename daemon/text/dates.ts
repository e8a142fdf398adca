import type { DateExtent } from './answer-kind.ts';

/**
 * The calendar dates a text names, as numbers that sort as the dates do (year × 10,000 + month × 100 + day; a
 * month or day left unsaid counts as 0), so the earliest and latest a document mentions can be told apart.
 */

const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'] as const;
const MONTH =
  '(January|February|March|April|May|June|July|August|September|October|November|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sept|Sep|Oct|Nov|Dec)\\.?';
/** Years a document plausibly dates itself by; a bare number outside them is a count, a code or an id. */
const YEAR = '(1[5-9]\\d\\d|20\\d\\d)';
/** Not part of a longer token: "TIKA-1139", "4.0.2010" and "1999/x" are not years. */
const ALONE_BEFORE = '(?<![\\w.\\-/])';
const ALONE_AFTER = '(?![\\w\\-/]|\\.\\d)';

const month = (name: string): number => MONTHS.indexOf(name.slice(0, 3).toLowerCase() as never) + 1;
const value = (year: string, monthNumber: number, day: number): number =>
  Number(year) * 10_000 + monthNumber * 100 + day;
const valid = (monthNumber: number, day: number): boolean =>
  monthNumber >= 1 && monthNumber <= 12 && day >= 0 && day <= 31;

/** Each form once, most specific first: a span a form has read is not read again by a vaguer one. */
const FORMS: readonly (readonly [RegExp, (match: RegExpExecArray) => number | undefined])[] = [
  [
    new RegExp(`${ALONE_BEFORE}${YEAR}-(\\d{2})-(\\d{2})${ALONE_AFTER}`, 'g'),
    (m) => (valid(Number(m[2]), Number(m[3])) ? value(m[1]!, Number(m[2]), Number(m[3])) : undefined),
  ],
  [
    // Month first, as in the United States, unless the first number cannot be a month (27/12/2007).
    new RegExp(`${ALONE_BEFORE}(\\d{1,2})/(\\d{1,2})/${YEAR}${ALONE_AFTER}`, 'g'),
    (m) => {
      const [first, second] = [Number(m[1]), Number(m[2])];
      const [monthNumber, day] = first > 12 ? [second, first] : [first, second];
      return valid(monthNumber, day) ? value(m[3]!, monthNumber, day) : undefined;
    },
  ],
  [
    new RegExp(`\\b${MONTH} (\\d{1,2})(?:st|nd|rd|th)?,? ${YEAR}\\b`, 'gi'),
    (m) => value(m[3]!, month(m[1]!), Number(m[2])),
  ],
  [
    new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)? (?:of )?${MONTH},? ${YEAR}\\b`, 'gi'),
    (m) => value(m[3]!, month(m[2]!), Number(m[1])),
  ],
  [new RegExp(`\\b${MONTH},? ${YEAR}\\b`, 'gi'), (m) => value(m[2]!, month(m[1]!), 0)],
  [new RegExp(`${ALONE_BEFORE}${YEAR}${ALONE_AFTER}`, 'g'), (m) => value(m[1]!, 0, 0)],
];

/** The dates a text names, in no particular order. */
export function datesIn(text: string): number[] {
  const taken: [number, number][] = [];
  const found: number[] = [];
  for (const [pattern, read] of FORMS) {
    for (const match of text.matchAll(pattern)) {
      const start = match.index;
      const end = start + match[0].length;
      if (taken.some(([from, to]) => start < to && end > from)) continue;
      const date = read(match as RegExpExecArray);
      if (date === undefined) continue;
      taken.push([start, end]);
      found.push(date);
    }
  }
  return found;
}

/**
 * The item naming the date furthest towards `extent` (the oldest, or the newest), the first of those naming the
 * same date; none when no item names a date. Where any item names a month, bare years are left out: a number
 * such as "entry 1501" reads as a year too, and a document dating its entries by day does not date them by year.
 */
export function furthestDated<T>(
  items: readonly T[],
  textOf: (item: T) => string,
  extent: DateExtent,
): T | undefined {
  const dated = items.map((item) => ({ item, dates: datesIn(textOf(item)) }));
  const byMonth = dated.some(({ dates }) => dates.some(namesMonth));
  const sign = extent === 'earliest' ? -1 : 1;
  let furthest: { item: T; date: number } | undefined;
  for (const { item, dates } of dated) {
    const counted = byMonth ? dates.filter(namesMonth) : dates;
    if (counted.length === 0) continue;
    const date = sign * Math.max(...counted.map((date) => sign * date));
    if (!furthest || sign * date > sign * furthest.date) furthest = { item, date };
  }
  return furthest?.item;
}

const namesMonth = (date: number): boolean => Math.floor(date / 100) % 100 > 0;
