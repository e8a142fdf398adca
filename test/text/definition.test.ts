import { describe, expect, it } from 'vitest';
import { definitionAsked, definitionTest } from '../../daemon/text/definition.ts';

describe('definitionAsked', () => {
  it.each([
    ['What is Mammoth?', 'Mammoth', ['mammoth']],
    ["What's Apache Tika?", 'Apache Tika', ['apach', 'tika']],
    ['what are the Harvard sentences', 'Harvard sentences', ['harvard', 'sent']],
    ['What is a Hauptlied?', 'Hauptlied', ['hauptly']],
    ['What is "The Gate"?', 'The Gate', ['gat']],
    ['What was the Black Cloister?', 'Black Cloister', ['black', 'cloister']],
    ['Who is Chris Rudolph?', 'Chris Rudolph', ['chris', 'rudolph']],
  ])('%j asks what %j is', (message, topic, terms) => {
    expect(definitionAsked(message)).toEqual({ topic, terms, asks: 'is' });
  });

  it.each([
    ['What does the pingurls setting do?', 'pingurls', ['pingurl'], 'setting'],
    ['What does the Add Entry link in the BlogCFC administrator do?', 'Add Entry', ['add', 'entry'], 'link'],
    ['what does harbourctl do', 'harbourctl', ['harbourctl'], undefined],
    ['What does the --force flag in git do?', '--force', ['forc'], 'flag'],
  ])('%j asks what %j does', (message, topic, terms, role) => {
    expect(definitionAsked(message)).toEqual({ topic, terms, asks: 'does', ...(role ? { role } : {}) });
  });

  it.each([
    'What does Mammoth do with the contents of a text box?',
    'What did Luther do?',
    // "in" opens no place here: the topic is "log in", which is no name.
    'What does the log in button do?',
    'What does the harbour master at the north quay do when a ship is late?',
    'What is the name of the river?',
    'What is Kearney Boulevard named after?',
    "What is Jacksonville's hottest recorded temperature?",
    'What is located within this district?',
    'What is the total cost of the capstone projects this year?',
    'Who is the chair of COUNTER?',
    'Who was the hostage?',
    'What is this document about?',
    `What is Mammoth${' ?'.repeat(16_000)}`,
  ])('%j asks something else', (message) => {
    expect(definitionAsked(message)).toBeUndefined();
  });
});

describe('definitionTest', () => {
  const defines = (message: string, sentence: string) => definitionTest(definitionAsked(message)!)(sentence);

  it.each([
    ['What is Mammoth?', 'Mammoth is designed to convert .docx documents.'],
    ['What is Tika?', 'Apache Tika(TM) detects and extracts metadata.'],
    ['What is a MicroStressBot?', 'A MicroStressBot is an electrostatic microrobot.'],
    ['What are clades?', '**Clades** are genetic branches of a family tree.'],
    ['What is BlogCFC?', 'Welcome to BlogCFC, a ColdFusion based blogging application.'],
    ['Who is Chris Rudolph?', 'Chris Rudolph, the marketing manager, knew the route.'],
    ['What is the population?', 'The population is 3,000 people.'],
    ['What is Mammoth?', '- MAMMOTH IS a converter of Word files.'],
  ])('for %j, %j defines it', (message, sentence) => {
    expect(defines(message, sentence)).toBe('sentence');
  });

  it.each([
    ['What does the pingurls setting do?', 'The pingurls setting lets you add ping support.', 'sentence'],
    ['What does the pingurls setting do?', 'pingurls enables pings to Technorati.', 'sentence'],
    ['What does the Add Entry link do?', 'Add Entry: Takes you straight to the form.', 'line'],
    ['What does the Add Entry link do?', '- **Add Entry link**: Takes you to the form.', 'line'],
    ['What does the Add Entry link do?', 'Add Entry: Create a new blog entry.', 'line'],
    ['What does the Add Entry link do?', 'Add Entry: Used to write a post.', 'line'],
  ])('for %j, %j says what it does', (message, sentence, defining) => {
    expect(defines(message, sentence)).toBe(defining);
  });

  it.each([
    ['What does the Add Entry link do?', 'Entries: Lets you browse, add and edit entries.'],
    ['What does the Add Entry link do?', 'Add Entry links are listed below: one per post.'],
    ['What is Port?', 'Port: 8080'],
    ['What does harbourctl do?', 'harbourctl: 2.9.1'],
    ['What does the Book Berth button do?', 'Book Berth: blue, top right.'],
  ])('for %j, %j does not say what it does', (message, sentence) => {
    expect(defines(message, sentence)).toBeUndefined();
  });

  it.each([
    ['What is COUNTER?', 'COUNTER compliance is declared every year.'],
    ['What is Mammoth?', 'You can install Mammoth with npm.'],
    ["What's Tika?", "Tika's parsers run in forked processes."],
    ['What are clades?', 'These clades (now extinct) were found in the tombs.'],
    ['What was huihui?', 'Huihui doctors staffed two imperial hospitals.'],
    ['What is COUNTER?', 'COUNTER members are listed on its website.'],
    ['What is COUNTER?', 'COUNTER reports must be delivered monthly.'],
    ['What is Mammoth?', 'Using Mammoth is easy once it is installed.'],
    ['What is Mammoth?', 'After installing Mammoth, the converter runs from the command line.'],
    ['What is Mammoth?', 'Unlike Mammoth, the other tools keep every style.'],
    ['What is the population?', 'The population grows every year.'],
  ])('for %j, %j does not define it', (message, sentence) => {
    expect(defines(message, sentence)).toBeUndefined();
  });

  it('reads a long run of marks after a name at once, not in time doubling with each', () => {
    // Read with backtracking over each mark's two readings, the time quadrupled with every two marks: 1.1 s for 26,
    // some 18 s for 30. A bound of a second is far from both that and microseconds.
    const started = performance.now();
    expect(defines('What is Mammoth?', `Mammoth${'(TM)'.repeat(30)}!`)).toBeUndefined();
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});
