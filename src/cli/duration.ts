import { InvalidArgumentError } from 'commander';

const UNIT_SECONDS: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86_400, w: 604_800 };

/**
 * `--sync-interval`: `90s`, `30m`, `6h`, `1d`, `1w`, parts together (`1h30m`), or plain seconds; `off` for none.
 * Returns seconds, or `off` (commander turns a parser's null into ''). The daemon decides the range (60 s to
 * 30 days).
 */
export function parseInterval(value: string): number | 'off' {
  const text = value.replace(/\s+/g, '').toLowerCase();
  if (text === 'off' || text === 'none') return 'off';
  if (/^\d+$/.test(text)) return Number(text);
  const parts = [...text.matchAll(/(\d+)([smhdw])/g)];
  if (parts.length === 0 || parts.map((part) => part[0]).join('') !== text) {
    throw new InvalidArgumentError('use a duration such as 30m, 6h or 1d (or seconds, or off)');
  }
  return parts.reduce((seconds, part) => seconds + Number(part[1]) * UNIT_SECONDS[part[2]!]!, 0);
}

/** `3600` → `1h`, `5400` → `1h30m`: an interval as `--sync-interval` takes it. */
export function formatInterval(seconds: number): string {
  let rest = seconds;
  let text = '';
  for (const unit of ['w', 'd', 'h', 'm', 's']) {
    const size = UNIT_SECONDS[unit]!;
    if (rest >= size) {
      text += `${Math.floor(rest / size)}${unit}`;
      rest %= size;
    }
  }
  return text || '0s';
}
