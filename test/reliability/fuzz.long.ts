import { afterAll, beforeAll, expect, test } from 'vitest';
import { ENDPOINTS } from '../../src/api/endpoints.ts';
import { startTestDaemon, type TestDaemon } from '../support/daemon.ts';
import { generateRequests, type KnownIds, runFuzz, seedFuzzTarget } from './fuzz.ts';
import { recordFigures, sleep, snapshot } from './support.ts';

const COUNT = 10_000;
let daemon: TestDaemon;
let known: KnownIds;

beforeAll(async () => {
  daemon = await startTestDaemon();
  known = await seedFuzzTarget(daemon);
});

afterAll(() => daemon.close());

test(`${COUNT} fuzzed requests across every endpoint: no 5xx, contract-shaped errors, nothing changed`, async () => {
  const requests = generateRequests(COUNT, 2026, known, daemon.apiKey);
  // Generating blocks the event loop this test shares with the daemon, so both sides' keep-alive timers expire
  // at once; a moment lets the idle sockets close before they are reused.
  await sleep(200);
  const before = await snapshot(daemon);
  const started = performance.now();
  const outcome = await runFuzz(daemon, requests);
  const seconds = (performance.now() - started) / 1_000;
  const unchanged = JSON.stringify(await snapshot(daemon)) === JSON.stringify(before);
  await recordFigures('fuzz', {
    requests: outcome.requests,
    endpoints: ENDPOINTS.length,
    seconds: Math.round(seconds * 10) / 10,
    by_status: outcome.byStatus,
    server_errors: outcome.failures.filter((failure) => failure.status >= 500).length,
    errors_outside_contract_shape: outcome.failures.filter((failure) => failure.status < 500).length,
    state_unchanged: unchanged,
  });
  expect(outcome.failures.slice(0, 5)).toEqual([]);
  expect(outcome.requests).toBe(COUNT);
  expect(unchanged).toBe(true);
});
