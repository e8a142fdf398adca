/** An 8-bit grey image, one byte per pixel, row by row: what a rendered page becomes before it is read. */
export interface GreyBitmap {
  width: number;
  height: number;
  pixels: Uint8Array;
  /** Pixels per inch of the page. */
  dpi: number;
}

/** Pixels darker than this are ink. */
const INK_BELOW = 128;

/** Converts a canvas's RGBA pixels (on white, as pdf.js paints a page) to grey, by luminance. */
export function greyFromRgba(
  rgba: Uint8Array | Uint8ClampedArray,
  width: number,
  height: number,
  dpi: number,
): GreyBitmap {
  const pixels = new Uint8Array(width * height);
  for (let source = 0, target = 0; target < pixels.length; source += 4, target++) {
    // ITU-R BT.601 weights in 8-bit fixed point: 0.299, 0.587, 0.114.
    pixels[target] = (rgba[source]! * 77 + rgba[source + 1]! * 150 + rgba[source + 2]! * 29) >> 8;
  }
  return { width, height, pixels, dpi };
}

/**
 * The bitmap as a binary PGM file. The recogniser takes encoded images only, and this one costs a header: PNG
 * took 100 ms to encode a 200-dpi page and the recogniser longer to decode it.
 */
export function encodePgm(bitmap: GreyBitmap): Uint8Array {
  const header = new TextEncoder().encode(`P5\n${bitmap.width} ${bitmap.height}\n255\n`);
  const file = new Uint8Array(header.length + bitmap.pixels.length);
  file.set(header);
  file.set(bitmap.pixels, header.length);
  return file;
}

/** The bitmap turned clockwise by a number of quarter turns. */
export function turnBitmap(bitmap: GreyBitmap, quarterTurns: number): GreyBitmap {
  const turns = ((quarterTurns % 4) + 4) % 4;
  if (turns === 0) return bitmap;
  const { width, height, pixels, dpi } = bitmap;
  if (turns === 2) return { width, height, pixels: pixels.slice().reverse(), dpi };
  const turned = new Uint8Array(pixels.length);
  // The new image is `height` wide and `width` high.
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 0; x < width; x++) {
      const target = turns === 1 ? x * height + (height - 1 - y) : (width - 1 - x) * height + y;
      turned[target] = pixels[row + x]!;
    }
  }
  return { width: height, height: width, pixels: turned, dpi };
}

/** Half the width and height, each pixel the mean of the four it replaces. */
export function halveBitmap(bitmap: GreyBitmap): GreyBitmap {
  const width = Math.max(1, Math.floor(bitmap.width / 2));
  const height = Math.max(1, Math.floor(bitmap.height / 2));
  const pixels = new Uint8Array(width * height);
  const source = bitmap.pixels;
  const stride = bitmap.width;
  for (let y = 0; y < height; y++) {
    const top = 2 * y * stride;
    const bottom = Math.min(2 * y + 1, bitmap.height - 1) * stride;
    for (let x = 0; x < width; x++) {
      const left = 2 * x;
      const right = Math.min(2 * x + 1, bitmap.width - 1);
      pixels[y * width + x] =
        (source[top + left]! + source[top + right]! + source[bottom + left]! + source[bottom + right]! + 2) >>
        2;
    }
  }
  return { width, height, pixels, dpi: bitmap.dpi / 2 };
}

/**
 * Which way a page's lines of text run, judged from its ink. Across the lines, the ink of each row of pixels
 * rises and falls with every line of text and the blank space between lines; along them, each column crosses
 * many lines and the ink stays about level once the gaps between letters are smoothed over. So the profile
 * across the lines varies far more than the one along them. Only a clear difference says `vertical`: a page of
 * one line, or of pictures, stays `horizontal`.
 */
export function textLineDirection(bitmap: GreyBitmap): 'horizontal' | 'vertical' {
  const rows = new Float64Array(bitmap.height);
  const columns = new Float64Array(bitmap.width);
  const { width, height, pixels } = bitmap;
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 0; x < width; x++) {
      if (pixels[row + x]! < INK_BELOW) {
        rows[y]!++;
        columns[x]!++;
      }
    }
  }
  // About the width of a gap between letters at the page's resolution.
  const window = Math.max(1, Math.round(bitmap.dpi / 40));
  const acrossRows = variation(rows, window);
  const acrossColumns = variation(columns, window);
  return acrossColumns >= 0.6 && acrossColumns > 2 * acrossRows ? 'vertical' : 'horizontal';
}

/** The coefficient of variation of a profile over its inked span, after a moving mean `window` wide each side. */
function variation(profile: Float64Array, window: number): number {
  const first = profile.findIndex((ink) => ink > 0);
  let last = profile.length - 1;
  while (last > first && profile[last] === 0) last--;
  if (first === -1 || last === first) return 0;
  const sums = new Float64Array(last - first + 2);
  for (let index = first; index <= last; index++)
    sums[index - first + 1] = sums[index - first]! + profile[index]!;
  const length = last - first + 1;
  const smoothed = new Float64Array(length);
  for (let index = 0; index < length; index++) {
    const from = Math.max(0, index - window);
    const to = Math.min(length - 1, index + window);
    smoothed[index] = (sums[to + 1]! - sums[from]!) / (to - from + 1);
  }
  const mean = smoothed.reduce((sum, value) => sum + value, 0) / length;
  const variance = smoothed.reduce((sum, value) => sum + (value - mean) ** 2, 0) / length;
  return mean > 0 ? Math.sqrt(variance) / mean : 0;
}
