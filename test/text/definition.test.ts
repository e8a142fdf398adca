import { describe, expect, it } from 'vitest';
import { definedIn, defines, definitionAsked } from '../../daemon/text/definition.ts';

describe('definitionAsked', () => {
  it.each([
    ['What is Mammoth?', 'Mammoth', ['mammoth']],
    ["What's Apache Tika?", 'Apache Tika', ['apach', 'tika']],
    ['what are the Harvard sentences', 'Harvard sentences', ['harvard', 'sentenc']],
    ['What is a Hauptlied?', 'Hauptlied', ['hauptli']],
    ['What was the Black Cloister?', 'Black Cloister', ['black', 'cloister']],
    ['Who is Chris Rudolph?', 'Chris Rudolph', ['chris', 'rudolph']],
  ])('%j asks what %j is', (message, topic, terms) => {
    expect(definitionAsked(message)).toEqual({ topic, terms });
  });

  it.each([
    'What is the name of the river?',
    'What is Kearney Boulevard named after?',
    "What is Jacksonville's hottest recorded temperature?",
    'What is located within this district?',
    'What is the total cost of the capstone projects this year?',
    'Who is the chair of COUNTER?',
    'Who was the hostage?',
    'What is this document about?',
  ])('%j asks something else', (message) => {
    expect(definitionAsked(message)).toBeUndefined();
  });
});

describe('defines', () => {
  const asked = (message: string) => definitionAsked(message)!;

  it('holds for a sentence opening with the topic as its subject, after an article, marks or qualifiers, or naming it in apposition', () => {
    expect(defines(asked('What is Mammoth?'), 'Mammoth is designed to convert .docx documents.')).toBe(true);
    expect(defines(asked('What is Tika?'), 'Apache Tika(TM) detects and extracts metadata.')).toBe(true);
    expect(
      defines(asked('What is a MicroStressBot?'), 'A MicroStressBot is an electrostatic microrobot.'),
    ).toBe(true);
    expect(defines(asked('What are clades?'), '**Clades** are genetic branches of a family tree.')).toBe(
      true,
    );
    expect(
      defines(asked('What is BlogCFC?'), 'Welcome to BlogCFC, a ColdFusion based blogging application.'),
    ).toBe(true);
  });

  it('does not hold for the topic qualifying another subject, nor named later in the sentence', () => {
    expect(defines(asked('What is COUNTER?'), 'COUNTER compliance is declared every year.')).toBe(false);
    expect(defines(asked('What was huihui?'), 'Huihui doctors staffed two imperial hospitals.')).toBe(false);
    expect(defines(asked('What is COUNTER?'), 'COUNTER members are listed on its website.')).toBe(false);
    expect(defines(asked('What is Mammoth?'), 'You can install Mammoth with npm.')).toBe(false);
    expect(defines(asked("What's Tika?"), "Tika's parsers run in forked processes.")).toBe(false);
    expect(defines(asked('What are clades?'), 'These clades (now extinct) were found in the tombs.')).toBe(
      false,
    );
  });

  it('is found in a text by any of its sentences', () => {
    const opening = '# Mammoth\n\nConvert Word files. Mammoth converts .docx documents to HTML.';
    expect(definedIn(asked('What is Mammoth?'), opening)).toBe(true);
    expect(definedIn(asked('What is Tika?'), opening)).toBe(false);
  });
});
