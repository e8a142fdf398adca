import { describe, expect, it } from 'vitest';
import { datesIn, furthestDated, slashOrderOf } from '../../daemon/text/dates.ts';

const line = (text: string) => text;

describe('dates', () => {
  it('reads the forms documents date themselves by, as numbers that sort as the dates do', () => {
    expect(datesIn('Release 0.1-incubating - 12/27/2007')).toEqual([20071227]);
    expect(datesIn('Released on 2024-03-05, logged at 2024-03-06T10:00Z.')).toEqual([20240305, 20240306]);
    expect(datesIn('It opened on February 7, 2016, and again on 3 March 2017.')).toEqual([
      20160207, 20170303,
    ]);
    expect(datesIn('End of life in April 2025.')).toEqual([20250400]);
    expect(datesIn('Founded in 1886.')).toEqual([18860000]);
    expect(datesIn('Letters of 1850–1920; © 2007-2024.')).toEqual([18500000, 19200000, 20070000, 20240000]);
  });

  it('reads a day-first date when its first number cannot be a month, and no date that cannot be one', () => {
    expect(datesIn('Signed 27/12/2007.')).toEqual([20071227]);
    expect(datesIn('Signed 12/27/2007.')).toEqual([20071227]);
    expect(datesIn('Signed 31/31/2007, 0/12/2007 and 2007-13-01.')).toEqual([]);
    expect(datesIn('On May 45, 2009.')).toEqual([20090000]);
  });

  it('reads the slash dates of a document in its own order: day-first where its dates show it', () => {
    expect(datesIn('Signed 05/11/2007.')).toEqual([20070511]);
    expect(datesIn('Signed 05/11/2007.', 'day-first')).toEqual([20071105]);
    expect(datesIn('Signed 12/27/2007.', 'day-first')).toEqual([20071227]);
    expect(slashOrderOf(['Release 2 - 27/12/2007', 'Release 1 - 05/11/2007'])).toBe('day-first');
    expect(slashOrderOf(['Release 2 - 12/27/2007', 'Release 1 - 05/11/2007'])).toBe('month-first');
    expect(slashOrderOf(['Release 1 - 05/11/2007', 'no dates'])).toBe('month-first');
    const dayFirst = ['Release 2 - 27/12/2007', 'Release 1 - 05/11/2007', 'Release 0 - 10/06/2007'];
    expect(furthestDated(dayFirst, line, 'earliest')).toEqual({
      item: 'Release 0 - 10/06/2007',
      date: 20070610,
      order: 'day-first',
    });
  });

  it('takes no issue number, version or count for a year', () => {
    expect(datesIn('Fixed TIKA-1139 and TIKA-2010 in 4.0.2010 (see r1999/x).')).toEqual([]);
    expect(datesIn('About 400 visitors, 12345 pages.')).toEqual([]);
  });

  it('picks the item naming the oldest or the newest date, the first of equals', () => {
    const lines = ['Release 2.0 - 8/18/2026', 'Release 1.0 - 03/09/2009', 'No date here', 'Also 2010'];
    expect(furthestDated(lines, line, 'earliest')).toEqual({
      item: 'Release 1.0 - 03/09/2009',
      date: 20090309,
      order: 'month-first',
    });
    expect(furthestDated(lines, line, 'latest')?.item).toBe('Release 2.0 - 8/18/2026');
    expect(furthestDated(['same 2009', 'again 2009'], line, 'earliest')?.item).toBe('same 2009');
    expect(furthestDated(['no date'], line, 'earliest')).toBeUndefined();
  });

  it('leaves bare years out where the items name months: a count may read as a year', () => {
    const lines = ['Release 2 - 8/18/2026: 1501 fixes', 'Release 1 - April 2009', 'In 1999 it began'];
    expect(furthestDated(lines, line, 'earliest')?.item).toBe('Release 1 - April 2009');
    expect(furthestDated(['In 1999 it began', 'In 2001 it grew'], line, 'earliest')?.item).toBe(
      'In 1999 it began',
    );
  });
});
