const WORDS = [
  'harbour',
  'granite',
  'lantern',
  'tide',
  'keeper',
  'signal',
  'beacon',
  'reef',
  'storm',
  'chart',
];

/** Deterministic prose, distinct per seed, as long as a test needs ingestion to take. */
export function prose(seed: number, paragraphs: number): string {
  return Array.from({ length: paragraphs }, (_, paragraph) => {
    const sentence = Array.from(
      { length: 40 },
      (_, word) => WORDS[(seed * 7 + paragraph * 3 + word * word) % WORDS.length],
    ).join(' ');
    return `Section ${seed}.${paragraph}: ${sentence}.`;
  }).join('\n\n');
}
