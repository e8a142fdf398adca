import { afterAll, beforeAll, expect, test } from 'vitest';
import { ENDPOINTS } from '../../src/api/endpoints.ts';
import { startTestDaemon, type TestDaemon } from '../support/daemon.ts';
import { generateRequests, type KnownIds, runFuzz, seedFuzzTarget } from './fuzz.ts';
import { sleep, snapshot } from './support.ts';

let daemon: TestDaemon;
let known: KnownIds;

beforeAll(async () => {
  daemon = await startTestDaemon();
  known = await seedFuzzTarget(daemon);
});

afterAll(() => daemon.close());

test('malformed and hostile requests across every endpoint: no 5xx, contract-shaped errors, nothing changed', async () => {
  const count = Number(process.env['CKB_FUZZ_COUNT'] ?? 1_000);
  const requests = generateRequests(count, 6, known, daemon.apiKey);
  // Generating blocks the event loop this test shares with the daemon, so both sides' keep-alive timers expire
  // at once; a moment lets the idle sockets close before they are reused.
  await sleep(200);
  expect(new Set(requests.map((request) => request.endpoint)).size).toBe(ENDPOINTS.length);
  const before = await snapshot(daemon);
  const outcome = await runFuzz(daemon, requests);
  expect(outcome.failures.slice(0, 5)).toEqual([]);
  expect(outcome.requests).toBe(count);
  expect(await snapshot(daemon)).toEqual(before);
  expect((await daemon.call('GET', '/health')).status).toBe(200);
});
