import { describe, expect, it } from 'vitest';
import { answerKind, answerOfKind, dateExtentAsked, questionNames } from '../../daemon/text/answer-kind.ts';
import { term, words } from '../../daemon/text/words.ts';

const known = (question: string) => new Set(words(question).map(term));

describe('answer kind', () => {
  it('reads the kind the first wh-phrase asks for', () => {
    expect(answerKind('How many TV networks are partners, when it comes to the NFL?')).toBe('number');
    expect(answerKind('When did the NFL start their 16 game seasons?')).toBe('date');
    expect(answerKind('In what year did the war end?')).toBe('date');
    expect(answerKind('Which NFL team represented the AFC?')).toBe('person');
    // A language is asked for by its name, as a team is.
    expect(answerKind('What language are the JETNET subroutines written in?')).toBe('person');
    expect(answerKind('What is language?')).toBe('other');
    expect(answerKind('Which language features does Rust have?')).toBe('other');
    expect(answerKind('What California city last hosted the Super Bowl?')).toBe('place');
    expect(answerKind('Why was the game moved?')).toBe('reason');
    expect(answerKind('What is the AFC short for?')).toBe('other');
  });

  it('reads "when" after another wh-word as joining a clause, not asking for a date', () => {
    expect(answerKind('What happens to italic text when Mammoth converts a document?')).toBe('other');
    expect(answerKind('How does Tika behave when a parser fails?')).toBe('other');
    expect(answerKind('Do you know when the bridge opened?')).toBe('date');
    expect(answerKind('And when was it built?')).toBe('date');
    // Asked as a second question, after another sentence, or of a time, "when" still asks for a date.
    for (const question of [
      'What is the latest version and when was it released?',
      'How and when was the bridge built?',
      'OK, I see what you mean. When did the Golden Gate Bridge open?',
      'What was the date when the bridge opened?',
    ])
      expect(answerKind(question)).toBe('date');
  });

  it('reads "how far back" as asking for a date, not a distance; "how long ago" asks for a span of years', () => {
    expect(answerKind('And how far back do its records go?')).toBe('date');
    expect(answerKind('How long ago did oxygen reach 10% of its present level?')).toBe('measure');
    expect(answerKind('How far is the reef from the coast?')).toBe('measure');
    expect(answerKind('How long is the bridge?')).toBe('measure');
  });

  it('reads how big, how fast or how heavy as asking for an amount of something, how many or how much for a number', () => {
    for (const question of [
      'How big is the MicroStressBot?',
      'How fast was the avalanche moving?',
      'How much does the lap pad weigh?',
      'What size are the robots?',
    ])
      expect(answerKind(question)).toBe('measure');
    for (const question of ['How many robots are there?', 'How much did it cost?', 'How old was she?'])
      expect(answerKind(question)).toBe('number');
  });

  it('finds an amount as a number and what it counts, or money, but no bare number', () => {
    const asked = known('How big is the robot?');
    expect(
      answerOfKind('The robots move apart from one another, 2 of them.', 'measure', asked),
    ).toBeUndefined();
    expect(answerOfKind('Team #6 built it.', 'measure', asked)).toBeUndefined();
    expect(answerOfKind('A 240 μm × 60 μm robot.', 'measure', asked)).toBe('240 μm');
    expect(answerOfKind('Weight = 5 lbs', 'measure', known('How heavy is it?'))).toBe('5 lbs');
    expect(answerOfKind('It was delayed by eighty seconds.', 'measure', known('How long?'))).toBe(
      'eighty seconds',
    );
    expect(answerOfKind('Total Cost of Project: $8,962', 'measure', asked)).toBe('$8,962');
    // Units written onto their numbers, as technical text has them; a decade is no amount.
    const howLong = known('How long does it wait by default?');
    expect(answerOfKind('It waits (assignmentTimeoutMs, default 30s).', 'measure', howLong)).toBe('30s');
    expect(answerOfKind('A budget of 256MB, or 2GiB at most.', 'measure', asked)).toBe('256MB');
    expect(answerOfKind('Polls every 500ms.', 'measure', howLong)).toBe('500ms');
    expect(answerOfKind('Popular in the 1990s.', 'measure', howLong)).toBeUndefined();
    expect(answerOfKind('Since the 90s the battery has lasted 10 hours.', 'measure', howLong)).toBe(
      '10 hours',
    );
    expect(answerOfKind("In her 20s, in the '80s, she led 12 engineers.", 'measure', asked)).toBe(
      '12 engineers',
    );
    expect(answerOfKind('The 5G plan costs 30 dollars a month.', 'measure', asked)).toBe('30 dollars');
  });

  it("tells a question about how far a document's dates reach from one about an event", () => {
    expect(dateExtentAsked('And how far back do its records go?')).toBe('earliest');
    expect(dateExtentAsked('How recent is the change log?')).toBe('latest');
    expect(
      dateExtentAsked('In what year is the oldest pharmacy said to have been established?'),
    ).toBeUndefined();
    expect(dateExtentAsked('When was the most recent Super Bowl hosted in Miami?')).toBeUndefined();
    expect(dateExtentAsked('How far is the reef from the coast?')).toBeUndefined();
    expect(dateExtentAsked('How far back from the shore does the reef lie?')).toBeUndefined();
  });

  it('finds a name only where the question does not already hold it', () => {
    const asked = known('Who led the Normans?');
    expect(answerOfKind('The Normans were led by Rollo.', 'person', asked)).toBe('Rollo');
    expect(answerOfKind('They were led by the Normans.', 'person', asked)).toBeUndefined();
  });

  it('takes no name ending in a name the question uses for an answer', () => {
    const question = 'Who did the Broncos defeat?';
    expect(questionNames(question)).toEqual(new Set(['bronco']));
    const sentence = 'The Denver Broncos defeated the Carolina Panthers.';
    expect(answerOfKind(sentence, 'person', known(question))).toBe('Denver Broncos');
    expect(answerOfKind(sentence, 'person', known(question), questionNames(question))).toBe(
      'Carolina Panthers',
    );
    // A name adding to the question's may answer it.
    const which = 'Which Super Bowl halftime show did Beyoncé headline?';
    expect(
      answerOfKind(
        'Beyoncé headlined the Super Bowl XLVII halftime show.',
        'person',
        known(which),
        questionNames(which),
      ),
    ).toBe('Super Bowl XLVII');
  });

  it("reads a question's names in any form, but not the word opening it", () => {
    expect(questionNames("Where did Beyoncé's mother grow up?")).toEqual(
      questionNames('Where did Beyoncé grow up?'),
    );
    const question = "Where did Beyoncé's mother grow up?";
    expect(
      answerOfKind('In Houston, Beyoncé grew up.', 'place', known(question), questionNames(question)),
    ).toBe('Houston');
    expect(questionNames('Describe where "Bo Peep" found them. Then name Paris.')).toEqual(
      new Set(['bo', 'peep', 'paris']),
    );
  });

  it('finds a place without a name where one is asked for', () => {
    const question = "Where did Bo Peep find the sheep's tails?";
    const asked = known(question);
    const names = questionNames(question);
    expect(answerOfKind('Bo Peep found the tails hung on a tree to dry.', 'place', asked, names)).toBe(
      'on a tree',
    );
    expect(
      answerOfKind("Little Bo Peep doesn't know where to find them.", 'place', asked, names),
    ).toBeUndefined();
  });

  it('finds a web address where a place on the web is asked for', () => {
    const question = 'Where can the manual be downloaded from?';
    const asked = known(question);
    const names = questionNames(question);
    expect(answerOfKind('<https://example.org/manual.pdf>', 'place', asked, names)).toBe(
      'https://example.org/manual.pdf',
    );
    expect(answerOfKind('see www.example.org/docs/ for more.', 'place', asked, names)).toBe(
      'www.example.org/docs/',
    );
    // Its capitalised parts are no names, and it says where better than a place without a name.
    expect(answerOfKind('get it from https://github.com/Apache/tika.', 'place', asked, names)).toBe(
      'https://github.com/Apache/tika',
    );
    expect(
      answerOfKind('get it from https://example.org/manual in the usual way.', 'place', asked, names),
    ).toBe('https://example.org/manual');
    expect(answerOfKind('the manual is long and dense.', 'place', asked, names)).toBeUndefined();
  });

  it('finds dates and numbers, and nothing for a question of no kind', () => {
    expect(answerOfKind('It began in 1066.', 'date', known('When did it begin?'))).toBe('1066');
    expect(answerOfKind('About 500,000 people live there.', 'number', known('How many live there?'))).toBe(
      '500,000',
    );
    expect(answerOfKind('It began in 1066.', 'other', new Set())).toBeUndefined();
  });
});

describe('answers of a kind', () => {
  it('reads how often as a frequency and finds one', () => {
    expect(answerKind('And how often must the usage reports be provided?')).toBe('frequency');
    const asked = known('How often are reports provided?');
    expect(answerOfKind('Reports are provided monthly.', 'frequency', asked)).toBe('monthly');
    expect(answerOfKind('Reports arrive twice a year.', 'frequency', asked)).toBe('twice a year');
    expect(answerOfKind('They have won it three times.', 'frequency', asked)).toBe('three times');
    expect(answerOfKind('There are 12 reports.', 'frequency', asked)).toBeUndefined();
  });

  it('takes the number a question word labels over an earlier unrelated one', () => {
    const line = 'ID#1135 Sleeps: 10 Bedrooms: 3 Bathrooms: 1.5';
    expect(answerOfKind(line, 'number', known('How many people can sleep there?'))).toBe('10');
    expect(answerOfKind(line, 'number', known('How many bedrooms are there?'))).toBe('3');
  });

  it("takes no list place of a JSON leaf's path for a number, but a number or name the leaf says", () => {
    const quote = 'main.characters."Teddy Flood"[3].quote: Well, your mouth moves fast enough.';
    expect(answerOfKind(quote, 'number', known('How fast was the avalanche moving?'))).toBeUndefined();
    expect(answerOfKind(quote, 'person', known('Who said that?'))).toBe('Teddy Flood');
    const measured = 'slides[2].text: It moved at 70 miles per hour.';
    expect(answerOfKind(measured, 'number', known('How fast was it moving?'))).toBe('70');
  });

  it("takes no paper's reference or figure number for an amount", () => {
    const asked = known('How big is the microrobot?');
    const sentence = 'In [4, 5, 6] a 240 μm × 60 μm microrobot (Fig. 2) is presented [7].';
    expect(answerOfKind(sentence, 'number', asked)).toBe('240');
    expect(answerOfKind('Fig. 1 shows the microrobot [7].', 'number', asked)).toBeUndefined();
    expect(answerOfKind('Table 3 lists 12 robots.', 'number', asked)).toBe('12');
    // Four digits in brackets may be a year.
    expect(answerOfKind('It was first shown [2019] in Paris.', 'date', known('When was it shown?'))).toBe(
      '2019',
    );
  });
});
