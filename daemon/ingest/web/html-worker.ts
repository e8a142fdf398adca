import { parentPort } from 'node:worker_threads';
import { type HtmlPage, htmlToPage } from '../extract/html.ts';

export interface HtmlRequest {
  html: string;
  url: string;
}
export type HtmlReply = { page: HtmlPage } | { error: string };

parentPort?.on('message', (task: HtmlRequest) => {
  let reply: HtmlReply;
  try {
    reply = { page: htmlToPage(task.html, task.url) };
  } catch (error) {
    reply = { error: error instanceof Error ? error.message : String(error) };
  }
  parentPort?.postMessage(reply);
});
