import { parentPort } from 'node:worker_threads';
import { htmlToPage } from '../extract/index.ts';

parentPort?.on('message', (task: { html: string; url: string }) => {
  try {
    parentPort?.postMessage({ page: htmlToPage(task.html, task.url) });
  } catch (error) {
    parentPort?.postMessage({ error: error instanceof Error ? error.message : String(error) });
  }
});
