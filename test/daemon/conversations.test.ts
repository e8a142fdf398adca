import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { addTextSource, startTestDaemon, type TestDaemon } from '../support/daemon.ts';
import { type FakeOpenAI, startFakeOpenAI } from '../support/fake-openai.ts';
import { postStream } from '../support/sse.ts';

let daemon: TestDaemon;
let vendor: FakeOpenAI;
let offlineApp: string;
let providerApp: string;

const FACTS = [
  [
    'lighthouse',
    'The Bell Rock Lighthouse was completed in 1810 by Robert Stevenson off the coast of Angus.',
  ],
  [
    'funding',
    'The Bell Rock Lighthouse was funded by the Northern Lighthouse Board with a loan from Parliament.',
  ],
  ['volcano', 'Mount Etna is an active stratovolcano on the east coast of Sicily in Italy.'],
] as const;

beforeAll(async () => {
  vendor = await startFakeOpenAI();
  daemon = await startTestDaemon({
    // lm-4 goes to the fake vendor; lm-3.5-turbo stays on the offline responder.
    config: {
      models: { 'lm-4': { base_url: vendor.baseUrl, model: 'fake-large', api_key_env: 'FAKE_VENDOR_KEY' } },
    },
    env: { FAKE_VENDOR_KEY: 'sk-test-vendor' },
  });
  offlineApp = (await daemon.call('POST', '/applications', { name: 'offline' })).body.id;
  providerApp = (
    await daemon.call('POST', '/applications', {
      name: 'provider',
      model: 'lm-4',
      system_message: 'Answer like a pirate.',
    })
  ).body.id;
  for (const application of [offlineApp, providerApp]) {
    for (const [name, content] of FACTS) await addTextSource(daemon, application, name, content);
  }
});
afterAll(async () => {
  await daemon.close();
  await vendor.close();
});

/** A new conversation's first reply's body, and the whole response to a follow-up in it. */
async function converse(applicationId: string, question: string, followUpQuestion: string) {
  const first = (
    await daemon.call('POST', '/conversations', { application_id: applicationId, message: question })
  ).body;
  const followUp = await daemon.call('POST', '/conversations', {
    conversation_id: first.conversation_id,
    message: followUpQuestion,
  });
  return { first, followUp };
}

async function messageCount(conversationId: string): Promise<number> {
  return (await daemon.call('GET', `/conversations/${conversationId}`)).body.messages.length;
}

describe('conversations, offline responder', () => {
  test('a new conversation answers from the sources, titled, with cited sources and usage', async () => {
    const { status, body } = await daemon.call('POST', '/conversations', {
      application_id: offlineApp,
      message: 'When was the Bell Rock Lighthouse completed?',
    });
    expect(status).toBe(200);
    expect(body.conversation_id).toMatch(/^conv_/);
    expect(body.title.length).toBeGreaterThan(0);
    expect(body.message).toContain('1810');
    expect(body.sources[0]).toMatchObject({ source: 'lighthouse', page: 1 });
    for (const source of body.sources) {
      expect(source.score).toBeGreaterThanOrEqual(0);
      expect(source.score).toBeLessThanOrEqual(1);
    }
    const scores = body.sources.map((source: { score: number }) => source.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(body.usage.total_tokens).toBe(body.usage.prompt_tokens + body.usage.completion_tokens);

    const conversation = (await daemon.call('GET', `/conversations/${body.conversation_id}`)).body;
    expect(conversation).toMatchObject({
      id: body.conversation_id,
      application_id: offlineApp,
      title: body.title,
    });
    expect(conversation.messages.map((message: { role: string }) => message.role)).toEqual([
      'user',
      'assistant',
    ]);
    expect(conversation.messages[1]).toMatchObject({ content: body.message, sources: body.sources });
    expect(conversation.total_tokens).toBe(body.usage.total_tokens);
  });

  test("a question that spells a tokenizer's special token is counted as plain text", async () => {
    const { status, body } = await daemon.call('POST', '/conversations', {
      application_id: offlineApp,
      message: 'When was the Bell Rock Lighthouse completed? <|endoftext|>',
    });
    expect(status).toBe(200);
    expect(body.message).toContain('1810');
    expect(body.usage.prompt_tokens).toBeGreaterThan(0);
  });

  test('a follow-up question retrieves about the earlier topic', async () => {
    const { first, followUp } = await converse(
      offlineApp,
      'Tell me about the Bell Rock Lighthouse.',
      'And who funded it?',
    );
    expect(followUp.status).toBe(200);
    expect(followUp.body.conversation_id).toBe(first.conversation_id);
    expect(followUp.body.sources.map((source: { source: string }) => source.source)).toContain('funding');
    expect(followUp.body.message).toMatch(/Northern Lighthouse Board/);
    expect(await messageCount(first.conversation_id)).toBe(4);
    const listed = (await daemon.call('GET', `/applications/${offlineApp}/conversations`)).body;
    expect(listed[0]).toMatchObject({ id: first.conversation_id, messages: [] });
  });

  test('says so when the sources do not hold the answer', async () => {
    const { body } = await daemon.call('POST', '/conversations', {
      application_id: offlineApp,
      message: 'What is the boiling point of liquid nitrogen?',
    });
    expect(body.message).toMatch(/could not find/i);
  });

  test.each([
    ['empty message', { message: '' }, 'message'],
    ['blank message', { message: '   ', application_id: 'x' }, 'message'],
    ['no application', { message: 'hi' }, 'application_id'],
    ['message too long', { message: 'x'.repeat(32_001), application_id: 'x' }, 'message'],
    ['message not a string', { message: 5, application_id: 'x' }, 'message'],
    ['stream not a boolean', { message: 'hi', application_id: 'x', stream: 'yes' }, 'stream'],
  ])('invalid turn (%s) → 400 naming the field', async (_label, body, param) => {
    const response = await daemon.call('POST', '/conversations', body);
    expect(response.status).toBe(400);
    expect(response.body.error).toMatchObject({ type: 'invalid_request', param });
  });

  test('unknown ids are 404 and a mismatched application is 400; nothing is created', async () => {
    const before = (await daemon.call('GET', '/conversations')).body.length;
    const unknownApp = await daemon.call('POST', '/conversations', {
      application_id: 'app_01ABCDEFGHJKMNPQRSTVWXYZ00',
      message: 'hi',
    });
    expect(unknownApp).toMatchObject({
      status: 404,
      body: { error: { type: 'not_found', param: 'application_id' } },
    });
    const unknownConversation = await daemon.call('POST', '/conversations', {
      conversation_id: 'conv_01ABCDEFGHJKMNPQRSTVWXYZ00',
      message: 'hi',
    });
    expect(unknownConversation).toMatchObject({ status: 404, body: { error: { param: 'conversation_id' } } });
    const { body: reply } = await daemon.call('POST', '/conversations', {
      application_id: offlineApp,
      message: 'Where is Mount Etna?',
    });
    const mismatch = await daemon.call('POST', '/conversations', {
      conversation_id: reply.conversation_id,
      application_id: providerApp,
      message: 'hi',
    });
    expect(mismatch).toMatchObject({ status: 400, body: { error: { param: 'application_id' } } });
    expect(await messageCount(reply.conversation_id)).toBe(2);
    expect((await daemon.call('GET', '/conversations')).body.length).toBe(before + 1);
  });

  test('rename, then delete', async () => {
    const { body: reply } = await daemon.call('POST', '/conversations', {
      application_id: offlineApp,
      message: 'Where is Mount Etna?',
    });
    const renamed = await daemon.call('PUT', `/conversations/${reply.conversation_id}`, {
      title: 'Volcanoes',
    });
    expect(renamed.body).toMatchObject({ id: reply.conversation_id, title: 'Volcanoes' });
    expect(renamed.body.messages).toHaveLength(2);
    expect((await daemon.call('PUT', `/conversations/${reply.conversation_id}`, { title: '' })).status).toBe(
      400,
    );
    expect((await daemon.call('DELETE', `/conversations/${reply.conversation_id}`)).body).toEqual({
      id: reply.conversation_id,
      deleted: true,
    });
    expect((await daemon.call('GET', `/conversations/${reply.conversation_id}`)).status).toBe(404);
  });

  test('streaming sends chunk events, then done with the full reply object', async () => {
    const result = await postStream(`${daemon.url}/conversations`, daemon.apiKey, {
      application_id: offlineApp,
      message: 'Where is Mount Etna?',
    });
    expect(result.contentType).toMatch(/^text\/event-stream/);
    const names = result.events.map((event) => event.event);
    expect(names.at(-1)).toBe('done');
    expect(names.slice(0, -1).every((name) => name === 'chunk')).toBe(true);
    expect(names.length).toBeGreaterThan(2);
    const done = result.events.at(-1)!.data;
    const text = result.events
      .slice(0, -1)
      .map((event) => event.data.delta)
      .join('');
    expect(done.message).toBe(text);
    expect(done.message).toContain('Sicily');
    expect(await messageCount(done.conversation_id)).toBe(2);
  });

  test('a streamed request that fails validation answers with a plain HTTP error', async () => {
    const result = await postStream(`${daemon.url}/conversations`, daemon.apiKey, {
      message: 'no application',
    });
    expect(result.status).toBe(400);
    expect(result.json.error.param).toBe('application_id');
  });
});

describe('conversations, a question about how far a source goes back', () => {
  /**
   * A change log, newest release first, far longer than the passages a reply is given. Its recent releases speak
   * of the parser's records, so a search for them fills every passage; its first thirty do not.
   */
  function changeLog(releases: number): string {
    const entries: string[] = ['Parser change log: every release of the parser and what it changed.'];
    for (let release = releases; release >= 1; release--) {
      const year = 2008 + Math.floor(release / 4);
      const date = release === 1 ? '12/27/2007' : `${(release % 12) + 1}/${(release % 27) + 1}/${year}`;
      entries.push(`Release 0.${release} - ${date}`);
      for (let change = 1; change <= 6; change++)
        entries.push(
          release > 30
            ? `* The parser records format ${change} in its change log entry ${release * 10 + change}.`
            : `* Fixed ISSUE-${release * 10 + change}: reading of format ${change} handles encoding ${release}.`,
        );
    }
    return entries.join('\n\n');
  }

  test('a follow-up asking how far back the change log goes is answered with its oldest release', async () => {
    const application = (await daemon.call('POST', '/applications', { name: 'change log' })).body.id;
    await addTextSource(daemon, application, 'CHANGES.txt', changeLog(150));
    const { followUp } = await converse(
      application,
      'What does the parser change log record?',
      'And how far back do its records go?',
    );
    expect(followUp.status).toBe(200);
    expect(followUp.body.message).toBe('Release 0.1 - 12/27/2007. [1]');
    expect(followUp.body.sources).toHaveLength(1);
    expect(followUp.body.sources[0]).toMatchObject({ source: 'CHANGES.txt' });
    // A search for the follow-up with the words of the question it follows does not reach the oldest release.
    const search = await daemon.call('POST', `/applications/${application}/search`, {
      query: 'And how far back do its records go? parser change log record',
      limit: 6,
    });
    expect(search.body.map((hit: { text: string }) => hit.text).join(' ')).not.toContain('12/27/2007');
  });
});

describe('conversations, a request for an overview', () => {
  const opening =
    'The harbour handbook explains how ships are moored and unloaded at the north quay, and what each step costs.';
  /** A long handbook whose sections, not its opening, hold the words "document" and "handbook" most. */
  function handbook(): string {
    const sections = [`# Harbour handbook\n\n${opening}`];
    for (let berth = 1; berth <= 40; berth++)
      sections.push(
        `## Berth ${berth}\n\nThis section of the handbook document lists berth ${berth}: its depth of ${berth + 4} metres, ` +
          `its ${berth % 5} cranes and the tariff of ${berth * 12} euros a day, as the document's tables show for every berth.`,
      );
    return sections.join('\n\n');
  }

  test('is answered with the opening of the source it names, which no search for its words reaches', async () => {
    const application = (await daemon.call('POST', '/applications', { name: 'overviews' })).body.id;
    await addTextSource(daemon, application, 'handbook.md', handbook());
    await addTextSource(
      daemon,
      application,
      'tides.md',
      'High water at the north quay comes two hours after the river mouth.',
    );
    await addTextSource(
      daemon,
      application,
      'notes.md',
      'Notes on handbook.md: the handbook.md tables of berths, the handbook.md tariffs, the md files to update.',
    );
    for (const message of [
      'What is this document about?',
      'Give me an overview of the harbour handbook',
      'What is handbook.md about?',
    ]) {
      const { status, body } = await daemon.call('POST', '/conversations', {
        application_id: application,
        message,
      });
      expect(status).toBe(200);
      expect(body.message).toBe(`${opening} [1]`);
      expect(body.sources).toHaveLength(1);
      expect(body.sources[0]).toMatchObject({ source: 'handbook.md', page: 1 });
    }
    const search = await daemon.call('POST', `/applications/${application}/search`, {
      query: 'What is this document about?',
      limit: 6,
    });
    expect(search.body.map((hit: { text: string }) => hit.text).join(' ')).not.toContain(opening);
  });
});

describe('conversations, a question who wrote a source', () => {
  /** A long report whose sections, not its opening with the byline, hold the question's words most. */
  function report(): string {
    const sections = ['# Spring tides at the north quay\n\nBy Ada Chen\n\nThe quay floods twice a year.'];
    for (let month = 1; month <= 40; month++)
      sections.push(
        `## Reading ${month}\n\nThis spring tides report reading ${month} gives the spring tide at the north quay as ` +
          `${month + 4} metres, as the report's tables of spring tides show for every reading of the report.`,
      );
    return sections.join('\n\n');
  }

  test("is answered with the byline on the first source's title page, which no search for its words reaches", async () => {
    const application = (await daemon.call('POST', '/applications', { name: 'bylines' })).body.id;
    await addTextSource(daemon, application, 'spring-tides.md', report());
    const { status, body } = await daemon.call('POST', '/conversations', {
      application_id: application,
      message: 'Who wrote the spring tides report?',
    });
    expect(status).toBe(200);
    expect(body.message).toBe('By Ada Chen. [1]');
    expect(body.sources[0]).toMatchObject({ source: 'spring-tides.md' });
    const search = await daemon.call('POST', `/applications/${application}/search`, {
      query: 'Who wrote the spring tides report?',
      limit: 6,
    });
    expect(search.body.map((hit: { text: string }) => hit.text).join(' ')).not.toContain('By Ada Chen');
    // What it is titled is on its title page too.
    const titled = await daemon.call('POST', '/conversations', {
      application_id: application,
      message: 'What is the title of the spring tides report?',
    });
    expect(titled.body.message).toBe('Spring tides at the north quay. [1]');
  });
});

describe('conversations, a question what something is', () => {
  /**
   * A manual whose sections, not its long opening, name the tool most often. The opening's sentences after the
   * definition are each too long for the 60 words of a reply that opens with it.
   */
  const preface = Array.from(
    { length: 4 },
    (_, part) =>
      `The north quay was rebuilt in part ${part + 1} of the works, when its timber piles were replaced by concrete, ` +
      'its cranes were moved onto rails along the whole length of the wall, its sheds were given wide doors on ' +
      'both sides, and the channel in front of it was dredged to a depth that lets the largest ships lie afloat.',
  ).join(' ');
  function manual(tool: string, definition: string): string {
    const sections = [`# Berths at the north quay\n\n${definition} ${preface}`];
    for (let berth = 1; berth <= 40; berth++)
      sections.push(
        `## Booking berth ${berth}\n\nRun ${tool} book ${berth} to book berth ${berth} with ${tool}; ${tool} answers ` +
          `with the berth's depth of ${berth + 4} metres and its tariff of ${berth * 12} euros a day.`,
      );
    return sections.join('\n\n');
  }
  const harbourctl =
    'Harbourctl is a command-line tool that books berths at the north quay for ships of any tonnage.';
  const quaybook =
    'Quaybook keeps the harbour master’s register of every ship that has called at the north quay.';

  test('is answered with the definition opening the source named after it, though another is found first, or opening the one found first', async () => {
    const application = (await daemon.call('POST', '/applications', { name: 'definitions' })).body.id;
    await addTextSource(daemon, application, 'harbourctl.md', manual('harbourctl', harbourctl));
    await addTextSource(daemon, application, 'register.md', manual('quaybook', quaybook));
    // Found before the manual named after the tool, and defining nothing.
    await addTextSource(
      daemon,
      application,
      'notes.md',
      'Notes on harbourctl: harbourctl book, harbourctl start, harbourctl stop, harbourctl logs.',
    );
    for (const [message, definition, source] of [
      ['What is harbourctl?', harbourctl, 'harbourctl.md'],
      ["What's Quaybook?", quaybook, 'register.md'],
    ] as const) {
      const search = await daemon.call('POST', `/applications/${application}/search`, {
        query: message,
        limit: 6,
      });
      expect(search.body.map((hit: { text: string }) => hit.text).join(' ')).not.toContain(definition);
      if (source === 'harbourctl.md') expect(search.body[0].source).toBe('notes.md');
      const { status, body } = await daemon.call('POST', '/conversations', {
        application_id: application,
        message,
      });
      expect(status).toBe(200);
      expect(body.message).toBe(`${definition} [1]`);
      expect(body.sources).toHaveLength(1);
      expect(body.sources[0]).toMatchObject({ source, page: 1 });
    }
  });
});

describe('conversations, a question what an acronym stands for', () => {
  const definition =
    'Ships are brought in under Berth Allocation Control (BAC), which the harbour master runs from the tower.';
  /** A handbook defining the acronym once, in a long introduction, and using it in every section after. */
  function handbook(): string {
    const introduction = Array.from(
      { length: 6 },
      (_, part) =>
        `The harbour was rebuilt in stage ${part + 1}, when its timber piles were replaced by concrete and its ` +
        'cranes were moved onto rails along the whole length of the north wall.',
    );
    const sections = [
      `# The harbour handbook\n\n${introduction.slice(0, 3).join(' ')} ${definition} ${introduction.slice(3).join(' ')}`,
    ];
    for (let berth = 1; berth <= 60; berth++)
      sections.push(
        `## Berth ${berth}\n\nBAC assigns berth ${berth} by tonnage; BAC logs its depth of ${berth + 4} metres, ` +
          `and BAC bills its tariff of ${berth * 12} euros a day to the ship's agent.`,
      );
    return sections.join('\n\n');
  }

  test('is answered with the sentence defining it, which no search for the question reaches', async () => {
    const application = (await daemon.call('POST', '/applications', { name: 'acronyms' })).body.id;
    await addTextSource(daemon, application, 'handbook.md', handbook());
    const message = 'What does BAC stand for in the harbour handbook?';
    const search = await daemon.call('POST', `/applications/${application}/search`, {
      query: message,
      limit: 6,
    });
    expect(search.body.map((hit: { text: string }) => hit.text).join(' ')).not.toContain(
      'Berth Allocation Control',
    );
    const { status, body } = await daemon.call('POST', '/conversations', {
      application_id: application,
      message,
    });
    expect(status).toBe(200);
    expect(body.message).toBe(`${definition} [1]`);
    expect(body.sources).toEqual([expect.objectContaining({ source: 'handbook.md' })]);
  });
});

describe('conversations, OpenAI-compatible provider', () => {
  test('the prompt carries the system message, numbered passages and the question; usage is the provider’s', async () => {
    vendor.script(() => ({
      content: 'Arr, it was finished in 1810 [1].',
      usage: { prompt_tokens: 321, completion_tokens: 12, total_tokens: 333 },
    }));
    const { status, body } = await daemon.call('POST', '/conversations', {
      application_id: providerApp,
      message: 'When was the Bell Rock Lighthouse completed?',
    });
    expect(status).toBe(200);
    expect(body.message).toBe('Arr, it was finished in 1810 [1].');
    expect(body.usage).toEqual({ prompt_tokens: 321, completion_tokens: 12, total_tokens: 333 });
    expect(body.sources[0].source).toBe('lighthouse');
    const request = vendor
      .chatRequests()
      .find((recorded) => JSON.stringify(recorded.body).includes('When was the Bell Rock'))!;
    const sent = JSON.stringify(request.body);
    expect(sent).toContain('Answer like a pirate.');
    expect(sent).toContain('fake-large');
    expect(sent).toMatch(/\[1\][^"]*lighthouse/);
    expect(request.headers['authorization']).toBe('Bearer sk-test-vendor');
  });

  test('a provider that keeps failing gives 502 upstream_error and leaves the conversation as it was', async () => {
    vendor.script(() => 'Fine.');
    const { body: first } = await daemon.call('POST', '/conversations', {
      application_id: providerApp,
      message: 'Where is Mount Etna?',
    });
    // The provider tries four times (three retries) before giving up.
    vendor.enqueue(...Array.from({ length: 4 }, () => ({ type: 'status' as const, status: 500 })));
    const failed = await daemon.call('POST', '/conversations', {
      conversation_id: first.conversation_id,
      message: 'Is it active?',
    });
    expect(failed.status).toBe(502);
    expect(failed.body.error.type).toBe('upstream_error');
    expect(failed.body.error.message).not.toContain('sk-test-vendor');
    expect(await messageCount(first.conversation_id)).toBe(2);
  });

  test('a provider that fails before its first token ends an accepted stream with an error event', async () => {
    vendor.script(() => 'Fine.');
    const { body: first } = await daemon.call('POST', '/conversations', {
      application_id: providerApp,
      message: 'Where is Mount Etna?',
    });
    vendor.enqueue(...Array.from({ length: 4 }, () => ({ type: 'status' as const, status: 503 })));
    const result = await postStream(`${daemon.url}/conversations`, daemon.apiKey, {
      conversation_id: first.conversation_id,
      message: 'And now?',
    });
    expect(result.contentType).toMatch(/^text\/event-stream/);
    expect(result.events).toEqual([
      { event: 'error', data: { error: expect.objectContaining({ type: 'upstream_error' }) } },
    ]);
    expect(await messageCount(first.conversation_id)).toBe(2);
  });

  test('a failure mid-stream ends with an error event and appends nothing', async () => {
    vendor.script(() => ({ content: 'one two three four five six' }));
    const { body: first } = await daemon.call('POST', '/conversations', {
      application_id: providerApp,
      message: 'Where is Mount Etna?',
    });
    vendor.enqueue({ type: 'fail-mid-stream', afterChunks: 2 });
    const result = await postStream(`${daemon.url}/conversations`, daemon.apiKey, {
      conversation_id: first.conversation_id,
      message: 'More?',
    });
    expect(result.events.at(0)?.event).toBe('chunk');
    expect(result.events.at(-1)).toMatchObject({
      event: 'error',
      data: { error: { type: 'upstream_error' } },
    });
    expect(await messageCount(first.conversation_id)).toBe(2);
  });

  test('a client that disconnects mid-stream aborts the upstream request and appends nothing', async () => {
    vendor.script(() => ({ content: 'a b c d e f g h i j k l m n o p' }));
    const { body: first } = await daemon.call('POST', '/conversations', {
      application_id: providerApp,
      message: 'Where is Mount Etna?',
    });
    vendor.enqueue({ type: 'slow', chunkDelayMs: 100 });
    const index = vendor.requests.length;
    const result = await postStream(
      `${daemon.url}/conversations`,
      daemon.apiKey,
      { conversation_id: first.conversation_id, message: 'Tell me slowly.' },
      { stopAfter: 1 },
    );
    expect(result.events).toHaveLength(1);
    const upstream = await vendor.settled(index);
    expect(upstream.aborted).toBe(true);
    expect(upstream.completed).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await messageCount(first.conversation_id)).toBe(2);
  });
});
