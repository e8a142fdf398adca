import { describe, expect, it } from 'vitest';
import { candidateSentences } from '../../daemon/respond/candidates.ts';
import { fieldAsked } from '../../daemon/respond/fields.ts';
import { readQuestion } from '../../daemon/respond/question.ts';
import type { ContextPassage } from '../../daemon/respond/types.ts';

function passage(text: string): ContextPassage {
  return { number: 1, sourceName: 'form.docx', sourceId: 'src_form', page: 1, score: 0.5, text };
}

const form = candidateSentences([
  passage(
    'Project Title: River sediment survey of the upper Tay\n\n' +
      'Keywords (enter up to 5) 1)Rivers, 2)Sediment, 3)Field survey\n\n' +
      'Please state below how many copies (plus the original) the funder requires and the address to send it to.\n\n' +
      'Name and Address: Research Council, Swindon\n\nNumber of Copies: 9\n\nLeaflet Copies: 40\n\n' +
      'Deadline for submission:\n30 June 2004\n\n' +
      'One episode of Doctor Who (The Infinite Quest) was released on VCD, with the others on DVD, tape and disc.',
  ),
]);

/** The lines of the form that fill in the field a question asks for. */
function fieldLines(question: string): string[] | undefined {
  const fills = fieldAsked(readQuestion(question));
  return fills && form.filter(fills).map((candidate) => candidate.sentence);
}

describe('fieldAsked', () => {
  it('finds the lines filling in the thing a question counts, or names with "what" or "which"', () => {
    expect(fieldLines('How many copies of the application does the funder want?')).toEqual([
      'Number of Copies: 9',
    ]);
    expect(fieldLines('What keywords describe the sediment survey project?')).toEqual([
      'Keywords (enter up to 5) 1)Rivers, 2)Sediment, 3)Field survey',
    ]);
    // A value on the line after its label; a label's name, which frames a question's ask.
    expect(fieldLines('Which submission deadline does the survey have?')).toEqual([
      'Deadline for submission:',
    ]);
    expect(fieldLines('What address should the application be sent to?')).toEqual([
      'Name and Address: Research Council, Swindon',
    ]);
  });

  it('leaves out labels holding words the question does not, and sentences before brackets', () => {
    // "Leaflet Copies" holds a word the question does not.
    expect(fieldLines('How many copies does the print shop keep?')).toEqual(['Number of Copies: 9']);
    expect(fieldLines('Which episode of Doctor Who was released on DVD?')).toEqual([]);
  });

  it('reads no field in a question naming none, or counting within a clause', () => {
    expect(fieldLines('How much does the lap pad weigh?')).toBeUndefined();
    expect(fieldLines('Which setting says how many copies the funder wants?')).toEqual([]);
    expect(fieldLines('Is the deadline in June?')).toBeUndefined();
  });
});
