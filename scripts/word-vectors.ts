// Derives the word-vector table the reranker reads (daemon/text/word-vector-table.ts) at install, so that no
// first question waits the seconds it takes. `npm run build` runs it; when the table is whole it only reads it.
import { readWordVectorTable, tablePath } from '../daemon/text/word-vector-table.ts';

readWordVectorTable(tablePath());
