import { expect } from 'vitest';
import { ExtractionError } from '../../daemon/ingest/extract/index.ts';

/** The ExtractionError a promise rejects with; fails the test if it resolves or rejects with anything else. */
export async function failureOf(promise: Promise<unknown>): Promise<ExtractionError> {
  const outcome = await promise.then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(outcome).toBeInstanceOf(ExtractionError);
  return outcome as ExtractionError;
}
