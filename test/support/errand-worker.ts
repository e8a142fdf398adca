// A worker for the thread pool's tests, scripted by each message: it sends `news` messages of news `waitMs`
// apart, then answers with its thread id; `exit` ends it with that code first.
import { parentPort, threadId } from 'node:worker_threads';

export interface Errand {
  news?: number;
  waitMs?: number;
  exit?: number;
}
export type ErrandReply = { news: number } | { threadId: number };

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

parentPort?.on('message', async (errand: Errand) => {
  if (errand.exit !== undefined) process.exit(errand.exit);
  for (let news = 1; news <= (errand.news ?? 0); news++) {
    await pause(errand.waitMs ?? 0);
    parentPort?.postMessage({ news } satisfies ErrandReply);
  }
  await pause(errand.waitMs ?? 0);
  parentPort?.postMessage({ threadId } satisfies ErrandReply);
});
