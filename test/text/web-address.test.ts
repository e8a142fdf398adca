import { describe, expect, it } from 'vitest';
import { webAddresses, writesWebAddress } from '../../daemon/text/web-address.ts';

describe('web addresses', () => {
  it('are read as documents write them, without the brackets or the stop after them', () => {
    expect(
      webAddresses(
        'See [SECURITY.md](SECURITY.md) and <https://tika.apache.org/security.html>. Or www.thep.lu.se/jetnet.',
      ),
    ).toEqual(['https://tika.apache.org/security.html', 'www.thep.lu.se/jetnet']);
    expect(webAddresses('Anonymous ftp from ftp://thep.lu.se/pub (latest version).')).toEqual([
      'ftp://thep.lu.se/pub',
    ]);
  });

  it('are not file names, e-mail addresses or a scheme alone', () => {
    for (const text of [
      'See SECURITY.md.',
      'Write to pshepherd@projectcounter.org',
      'It speaks http:// only.',
    ])
      expect(writesWebAddress(text)).toBe(false);
    // The same answer twice: a pattern kept between calls must not remember where it stopped.
    expect(writesWebAddress('http://localhost/blog/admin')).toBe(true);
    expect(writesWebAddress('http://localhost/blog/admin')).toBe(true);
  });
});
