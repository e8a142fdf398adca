// Derives the word-vector table the offline responder and reranker read (daemon/text/word-vectors.ts) at install,
// so that no first question waits the seconds it takes. `npm run build` runs it; it does nothing when the table is there.
import { ensureTable } from '../daemon/text/word-vectors.ts';

ensureTable();
