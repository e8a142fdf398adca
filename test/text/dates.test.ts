import { describe, expect, it } from 'vitest';
import { datesIn, furthestDated } from '../../daemon/text/dates.ts';

describe('dates', () => {
  it('reads the forms documents date themselves by, as numbers that sort as the dates do', () => {
    expect(datesIn('Release 0.1-incubating - 12/27/2007')).toEqual([20071227]);
    expect(datesIn('Released on 2024-03-05.')).toEqual([20240305]);
    expect(datesIn('It opened on February 7, 2016, and again on 3 March 2017.')).toEqual([
      20160207, 20170303,
    ]);
    expect(datesIn('End of life in April 2025.')).toEqual([20250400]);
    expect(datesIn('Founded in 1886.')).toEqual([18860000]);
  });

  it('reads a day-first date when its first number cannot be a month', () => {
    expect(datesIn('Signed 27/12/2007.')).toEqual([20071227]);
    expect(datesIn('Signed 12/27/2007.')).toEqual([20071227]);
    expect(datesIn('Signed 31/31/2007.')).toEqual([]);
  });

  it('takes no issue number, version or count for a year', () => {
    expect(datesIn('Fixed TIKA-1139 and TIKA-2010 in 4.0.2010 (see r1999/x).')).toEqual([]);
    expect(datesIn('About 400 visitors, 12345 pages.')).toEqual([]);
  });

  it('picks the item naming the oldest or the newest date, the first of equals', () => {
    const lines = ['Release 2.0 - 8/18/2026', 'Release 1.0 - 03/09/2009', 'No date here', 'Also 2010'];
    const text = (line: string) => line;
    expect(furthestDated(lines, text, 'earliest')).toBe('Release 1.0 - 03/09/2009');
    expect(furthestDated(lines, text, 'latest')).toBe('Release 2.0 - 8/18/2026');
    expect(furthestDated(['same 2009', 'again 2009'], text, 'earliest')).toBe('same 2009');
    expect(furthestDated(['no date'], text, 'earliest')).toBeUndefined();
  });

  it('leaves bare years out where the items name months: a count may read as a year', () => {
    const lines = ['Release 2 - 8/18/2026: 1501 fixes', 'Release 1 - April 2009', 'In 1999 it began'];
    expect(furthestDated(lines, (line) => line, 'earliest')).toBe('Release 1 - April 2009');
    expect(furthestDated(['In 1999 it began', 'In 2001 it grew'], (line) => line, 'earliest')).toBe(
      'In 1999 it began',
    );
  });
});
