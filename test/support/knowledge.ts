import { type TestDaemon, waitForSource } from './daemon.ts';
import { buildPdf } from './fixtures-documents.ts';

/** A few paragraphs of real prose on distinct topics, so each question has one right source and page. */
export const LIGHTHOUSE_NOTES = [
  'The Bell Rock Lighthouse stands on a reef eleven miles off the coast of Angus in Scotland. It was completed in 1810 by the engineer Robert Stevenson, and it is the oldest surviving sea-washed lighthouse in the world.',
  'The Bell Rock Lighthouse was funded by the Northern Lighthouse Board, which borrowed the money from Parliament and repaid the loan from dues charged to passing ships.',
  'Before the lighthouse was built, the reef wrecked many ships each winter, because it lies just under the surface at high tide.',
].join('\n\n');

/** The pages of a PDF about volcanoes: questions about Vesuvius are answered from page 2. */
export const VOLCANO_PAGES = [
  'Mount Etna is an active stratovolcano on the east coast of Sicily in Italy. It is the highest active volcano in Europe outside the Caucasus.',
  'Mount Vesuvius destroyed the Roman towns of Pompeii and Herculaneum in the eruption of the year 79. It last erupted in 1944.',
];

export function volcanoPdf(): Promise<Uint8Array> {
  return buildPdf(VOLCANO_PAGES);
}

/** Uploads bytes through the pre-signed flow, as the CLI does, and returns the file id. */
export async function uploadFile(daemon: TestDaemon, name: string, bytes: Uint8Array): Promise<string> {
  const presigned = await daemon.call('GET', `/files/presigned-url?name=${encodeURIComponent(name)}`);
  const response = await fetch(presigned.body.presigned_url, { method: 'PUT', body: bytes });
  if (response.status !== 200) throw new Error(`upload failed: ${response.status} ${await response.text()}`);
  return presigned.body.file_id;
}

/** An application holding the lighthouse notes (a text source) and the volcano PDF (a file source), ingested. */
export async function createKnowledgeApplication(
  daemon: TestDaemon,
  application: Record<string, unknown> = {},
): Promise<{ id: string; text: string; pdf: string }> {
  const created = await daemon.call('POST', '/applications', { name: 'Knowledge', ...application });
  if (created.status !== 201) throw new Error(`application: ${JSON.stringify(created.body)}`);
  const id: string = created.body.id;
  const text = await daemon.call('POST', '/sources', {
    application_id: id,
    type: 'text',
    name: 'Lighthouse notes',
    content: LIGHTHOUSE_NOTES,
  });
  const pdf = await daemon.call('POST', '/sources', {
    application_id: id,
    type: 'file',
    name: 'volcanoes.pdf',
    content: await uploadFile(daemon, 'volcanoes.pdf', await volcanoPdf()),
  });
  for (const source of [text.body.id, pdf.body.id]) {
    const final = await waitForSource(daemon, source);
    if (final.embed_status !== 'COMPLETED')
      throw new Error(`source ${source}: ${final.embed_status_message}`);
  }
  return { id, text: text.body.id, pdf: pdf.body.id };
}
