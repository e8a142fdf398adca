/** An ANSI escape sequence (colours), which takes no room on screen. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: escape sequences are what is matched
const ESCAPE = /^\u001b\[[0-9;]*m/;

/**
 * Wraps streamed text at word boundaries for a terminal `width` columns wide. A word is held until the space
 * or newline after it arrives, then written on the current line if it fits, else on a new one; colour codes
 * take no width and are never split. A word longer than the line is written as it is.
 */
export class WordWrap {
  readonly #width: number;
  #column = 0;
  #spaces = '';
  #word = '';
  #wordWidth = 0;

  constructor(width: number) {
    this.#width = width;
  }

  push(text: string): string {
    let output = '';
    for (let index = 0; index < text.length; ) {
      const code = ESCAPE.exec(text.slice(index, index + 32))?.[0];
      if (code) {
        this.#word += code;
        index += code.length;
        continue;
      }
      const character = String.fromCodePoint(text.codePointAt(index) ?? 0);
      index += character.length;
      if (character === '\n') {
        output += `${this.#flushWord()}\n`;
        this.#spaces = '';
        this.#column = 0;
      } else if (character === ' ' || character === '\t') {
        output += this.#flushWord();
        this.#spaces += character;
      } else {
        this.#word += character;
        this.#wordWidth += 1;
      }
    }
    return output;
  }

  end(): string {
    return this.#flushWord() + this.#spaces;
  }

  #flushWord(): string {
    if (this.#word === '') return '';
    let output: string;
    if (this.#column > 0 && this.#column + this.#spaces.length + this.#wordWidth > this.#width) {
      output = `\n${this.#word}`;
      this.#column = this.#wordWidth;
    } else {
      output = this.#spaces + this.#word;
      this.#column += this.#spaces.length + this.#wordWidth;
    }
    this.#spaces = '';
    this.#word = '';
    this.#wordWidth = 0;
    return output;
  }
}
