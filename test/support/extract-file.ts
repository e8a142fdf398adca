// `node extract-file.ts PATH`: reads a file through a fresh extractor (its worker pool, default settings) and
// prints the document as JSON, or the failure's message on stderr with exit code 1.
import { createExtractor } from '../../daemon/ingest/extract/index.ts';

const [path] = process.argv.slice(2);
const extractor = createExtractor();
try {
  const document = await extractor.extractFile(path!, 'scan.pdf');
  process.stdout.write(JSON.stringify(document));
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
} finally {
  await extractor.close();
}
