// A worker for the pool's tests that answers as `daemon/ingest/extract/worker.ts` does, scripted by the text
// of each document: `crash` ends the worker, `slow <ms>` takes that long. Each result reports how many jobs
// came in its message, and in which message of this worker.
import { parentPort } from 'node:worker_threads';
import type { JobOutcome, WorkerRequest, WorkerResponse } from '../../daemon/ingest/extract/worker.ts';

let messages = 0;

parentPort?.on('message', async (request: WorkerRequest) => {
  messages += 1;
  const outcomes: JobOutcome[] = [];
  for (const job of request.jobs) {
    const text = job.kind === 'chunk' && 'document' in job.source ? job.source.document.pages[0]!.text : '';
    if (text === 'crash') process.exit(3);
    const slow = /^slow (\d+)$/.exec(text);
    if (slow) await new Promise((resolve) => setTimeout(resolve, Number(slow[1])));
    const chunk = { index: 0, page: 1, text, headings: [`message ${messages} of ${request.jobs.length}`] };
    outcomes.push({ ok: true, result: { chunks: [chunk], pages: 1, characters: text.length } });
  }
  const response: WorkerResponse = { outcomes };
  parentPort?.postMessage(response);
});
