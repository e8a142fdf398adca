// Derives the word-vector table the reranker reads (daemon/text/word-vector-table.ts) at install,
// so that no first question waits the seconds it takes. `npm run build` runs it; it does nothing when the table is there.
import { ensureTable } from '../daemon/text/word-vector-table.ts';

ensureTable();
