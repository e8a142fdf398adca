import { describe, expect, it } from 'vitest';
import { holdsTopic, overviewRequested } from '../../daemon/text/overview.ts';

describe('overviewRequested', () => {
  it.each([
    ['Summarise the Tika change log.', 'the Tika change log', ['tika', 'chang', 'log']],
    ['Please summarize this document', 'this document', []],
    ['Give me a brief overview of Mammoth', 'Mammoth', ['mammoth']],
    ['Can you give us a summary of the 2024 report?', 'the 2024 report', ['2024', 'report']],
    ['Overview of BlogCFC', 'BlogCFC', ['blogcfc']],
    ['tell me about BlogCFC', 'BlogCFC', ['blogcfc']],
    ['Tell me more about the release notes', 'the release notes', ['releas', 'not']],
    ['What is this document about?', 'this document', []],
    ["What's the file all about?", 'the file', []],
    ['What does the handbook cover?', 'the handbook', ['handbook']],
  ])('%j asks an overview of %j', (message, topic, terms) => {
    expect(overviewRequested(message)).toEqual({ topic, terms });
  });

  it.each([
    'What is Mammoth?',
    'Tell me about how Mammoth converts images',
    'Describe what the parser records',
    'Who wrote the summary of the trial?',
    'When was the overview published?',
    'Which license is BlogCFC under?',
    `Summarise the change log${' ?'.repeat(16_000)}`,
  ])('%j asks something else', (message) => {
    expect(overviewRequested(message)).toBeUndefined();
  });
});

describe('holdsTopic', () => {
  const request = (message: string) => overviewRequested(message)!;

  it('is held by a text holding every word of the topic, or a word beginning as it does', () => {
    expect(holdsTopic(request('Summarise the Tika changelog'), 'tika-CHANGES.txt\nRelease 4.1.0')).toBe(true);
    expect(holdsTopic(request('Give me an overview of Mammoth'), 'Mammoth converts .docx files')).toBe(true);
  });

  it('is not held when a word of the topic is missing, nor by a short word’s longer relative', () => {
    expect(holdsTopic(request('Summarise the Tika changelog'), 'Release notes of Tika')).toBe(false);
    expect(holdsTopic(request('Tell me about Rome'), 'The Romans built roads.')).toBe(false);
  });

  it('is held by any text when the request only points at a source', () => {
    expect(holdsTopic(request('What is this document about?'), 'Anything at all.')).toBe(true);
  });
});
