import { InvalidArgumentError } from 'commander';
import { describe, expect, it } from 'vitest';
import { formatInterval, parseInterval } from '../../src/cli/duration.ts';

describe('--sync-interval durations', () => {
  it.each([
    ['90s', 90],
    ['30m', 1_800],
    ['6h', 21_600],
    ['1d', 86_400],
    ['1w', 604_800],
    ['1h30m', 5_400],
    ['1H 30M', 5_400],
    ['3600', 3_600],
    ['off', 'off'],
    ['none', 'off'],
  ])('%s is %s', (text, seconds) => {
    expect(parseInterval(text)).toBe(seconds);
  });

  it.each(['', 'soon', '1.5h', '-1h', '1h and more', 'h1', '10y'])('%j is refused', (text) => {
    expect(() => parseInterval(text)).toThrow(InvalidArgumentError);
  });

  it.each([
    [60, '1m'],
    [5_400, '1h30m'],
    [86_400, '1d'],
    [90_061, '1d1h1m1s'],
  ])('%i seconds read back as %s, which parses to them again', (seconds, text) => {
    expect(formatInterval(seconds)).toBe(text);
    expect(parseInterval(text)).toBe(seconds);
  });
});
