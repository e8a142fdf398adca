import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createHashedEmbedder } from '../../daemon/embed/hashed.ts';

/**
 * Vectors of `offline-hash-*-v1` are stored with users' data, so the embedder's output is frozen: these digests
 * of each vector's bytes were taken from the implementation the id was first released with. A change that
 * alters a single bit needs a new embedder id, and every user's vectors re-embedded.
 */
const TEXTS = [
  'The Apollo program landed twelve astronauts on the Moon between 1969 and 1972.',
  "# Guide > Install\nRun the installer, then restart: it's quick. THE RESTART IS REQUIRED!!",
  "Rockets rocket rocketing rocketed; the rocket's rockets. Rockets, rockets, rockets.",
  'Café naïve Straße façade — résumé coöperate Ångström.',
  'ΣΟΦΙΑ ΚΑΙ ΛΟΓΟΣ. Ο ΘΕΟΣ; ὀδυσσεύς  ἀχιλλεύς',
  '東京は日本の首都です。北京是中国的首都。서울은 한국의 수도입니다.',
  'ﬁnancial ﬂow ½ ² x² H₂O №5 ℡ ㍿ ＡＢＣ１２３',
  'a1b2 3d 2024-06-30 v1.2.3 0x1F4 1,000,000 12:30pm',
  'the of and to in is was for on that with as by at from',
  '',
  '   \n\t  ',
  'e\u0301cole cafe\u0301 n\u0303o a\u0308\u0304',
  'mixed ASCII run then ünïcödé then ASCII again with CamelCase and snake_case_words',
  'bigram bigram bigram bigram chain chain chain of of of words words words words words',
  longText(),
];

const DIGESTS: Record<number, string[]> = {
  // A power of two: the dimension is picked with a mask.
  1024: [
    'f9ecb8690eb557d6',
    'c397a3e75e66200f',
    '2ec9a8f582231848',
    'b553500450e9f476',
    'cade097680413130',
    'ae70e87a4cd2b027',
    '43083301dbce02e7',
    'c8e48b6da5aa3bed',
    'ad7facb2586fc6e9',
    'ad7facb2586fc6e9',
    'ad7facb2586fc6e9',
    'b2642d53831c36e2',
    '1e1e36e849b0b5df',
    '4c0778c3e874e837',
    '902efba7a87d70ec',
  ],
  // Not a power of two: the dimension is picked with a remainder.
  1000: [
    'badd2983d92b7fcf',
    '058dd58c5bcc4daa',
    'd56ad6bcdbe38308',
    'd24791e090198abb',
    '714d985954d8ca3c',
    'd509ab29cc66d7f7',
    '66b2e23ffa945b49',
    '1d3fa8b1836f80eb',
    'fc19b19971194257',
    'fc19b19971194257',
    'fc19b19971194257',
    '7e4b3096297a0ae2',
    '68cff272f6ddd2eb',
    'e6a9c3b1c781211a',
    '7d9049b024477cae',
  ],
};

/** More distinct features than the vectorizer's first table holds, the same each time. */
function longText(): string {
  const parts: string[] = [];
  for (let index = 0; index < 3000; index++) {
    parts.push(`w${(index * 7919) % 10007}x${index % 13 === 0 ? ' the' : ''}`);
  }
  return parts.join(' ');
}

function digest(vector: Float32Array): string {
  const bytes = new Uint8Array(vector.buffer, vector.byteOffset, vector.byteLength);
  return createHash('sha256').update(bytes).digest('hex').slice(0, 16);
}

describe('hashed embedder output', () => {
  for (const [dimensions, digests] of Object.entries(DIGESTS)) {
    it(`is bit for bit the released ${dimensions}-dimension vectors, in one batch`, async () => {
      const embedder = createHashedEmbedder({ dimensions: Number(dimensions) });
      const vectors = await embedder.embed(TEXTS);
      expect(vectors.map(digest)).toEqual(digests);
    });

    it(`is bit for bit the released ${dimensions}-dimension vectors, one text at a time, after others`, async () => {
      const embedder = createHashedEmbedder({ dimensions: Number(dimensions) });
      const reversed: string[] = [];
      for (const text of [...TEXTS].reverse()) reversed.push(digest((await embedder.embed([text]))[0]!));
      expect(reversed.reverse()).toEqual(digests);
    });
  }
});
