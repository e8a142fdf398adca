import { createCanvas, loadImage } from '@napi-rs/canvas';
import { afterAll, describe, expect, test } from 'vitest';
import { greyFromRgba } from '../../daemon/ingest/extract/bitmap.ts';
import { createRecogniser, RecognitionTimeout } from '../../daemon/ingest/extract/recogniser.ts';
import { renderScan, wordRecall } from '../support/scans.ts';

const TEXT = 'Supplies arrived by boat every second Thursday, weather permitting.';

async function scanBitmap() {
  const image = await loadImage(renderScan([TEXT]).png);
  const canvas = createCanvas(image.width, image.height);
  const context = canvas.getContext('2d');
  context.drawImage(image, 0, 0);
  return greyFromRgba(
    context.getImageData(0, 0, image.width, image.height).data,
    image.width,
    image.height,
    200,
  );
}

describe('the recogniser', () => {
  const recogniser = createRecogniser(['eng']);
  afterAll(() => recogniser.close());

  test('reads a bitmap, saying how confident it is and how much memory its engine holds', async () => {
    const reading = await recogniser.recognise(await scanBitmap(), 30_000);
    expect(wordRecall(TEXT, reading.text)).toBe(1);
    expect(reading.confidence).toBeGreaterThan(80);
    // A WebAssembly engine of tens of MB, well under the limit at which it is restarted.
    expect(reading.engineBytes).toBeGreaterThan(16 * 1024 * 1024);
    expect(reading.engineBytes).toBeLessThan(512 * 1024 * 1024);
  });

  test('a page past its time limit stops the engine, and the next page starts a new one', async () => {
    const bitmap = await scanBitmap();
    await expect(recogniser.recognise(bitmap, 1)).rejects.toBeInstanceOf(RecognitionTimeout);
    const reading = await recogniser.recognise(bitmap, 30_000);
    expect(wordRecall(TEXT, reading.text)).toBe(1);
  });
});
