export { type HtmlPage, htmlToPage } from './html.ts';
