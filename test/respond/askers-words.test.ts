import { describe, expect, it } from 'vitest';
import { askersTerms } from '../../daemon/respond/askers-words.ts';
import { term } from '../../daemon/text/words.ts';

const terms = (...words: string[]) => new Set(words.map(term));

describe('askersTerms', () => {
  it("reads what the asker wants, needs, knows or wonders, 'whether', and 'going' as in 'going to'", () => {
    expect(
      askersTerms("Where am I pointed to if I want to check how Tika's incubation is going right now?"),
    ).toEqual(terms('want', 'going'));
    expect(askersTerms('I want to know whether the lighthouse was built on the cape.')).toEqual(
      terms('want', 'know', 'whether'),
    );
    expect(askersTerms("I'd like to know who built it")).toEqual(terms('know'));
    expect(askersTerms('Do you know when it opened?')).toEqual(terms('know'));
    expect(askersTerms('What do I need?')).toEqual(terms('need'));
    expect(askersTerms('Is it going to rain?')).toEqual(terms('going'));
    expect(askersTerms("Doesn't it close on Sundays?")).toEqual(new Set(['doesn']));
    // After a greeting, in a chat's lower case, on the line under a title, or with more words between.
    for (const message of [
      'Hi I need to know when it was built',
      'i need to know when it was built',
      'Bell Rock Lighthouse\nI need to know when it was built',
    ])
      expect(askersTerms(message), message).toEqual(terms('need', 'know'));
    expect(askersTerms('Do you happen to know when it opened?')).toEqual(terms('know'));
    expect(askersTerms("What's going on?")).toEqual(terms('going'));
  });

  it('keeps the same words said of someone else, naming a thing, or stemming like another word of the question', () => {
    for (const question of [
      'What did the settlers need?',
      'What is known about the Wonder of the Seas?',
      'Why did Elizabeth I want to stay unmarried?',
      'What did the soldiers of World War I need?',
      'I Want to Hold Your Hand: who wrote it?',
      'Who is going to Mars first?',
      "Why can't you recycle greasy cans?",
      "Why haven't ships used the haven at Dover?",
      "Why don't Don Bradman's records fall?",
      "What did van't Hoff discover?",
      'Which ferry is going to the harbour?',
      'Who is going on the guided tour?',
      "Why won't the Cubs win?",
      "Why did Kaua'i want independence?",
    ])
      expect(askersTerms(question), question).toEqual(new Set());
  });

  it('reads the turn a follow-up refers to too, and keeps a word either turn uses otherwise', () => {
    expect(
      askersTerms('And how did they get supplies?', 'I want to know who lived on the Bell Rock'),
    ).toEqual(terms('want', 'know'));
    expect(askersTerms("And why haven't they been banned?", 'Why did tax havens grow in the 1980s?')).toEqual(
      new Set(),
    );
  });
});
