import { type AddressObject, type Attachment, type EmailAddress, simpleParser } from 'mailparser';
import type { ExtractedDocument, ExtractedPage } from '../types.ts';
import { ExtractionError } from './errors.ts';
import { htmlToText } from './html.ts';

/** Reads another file format; e-mail attachments are read through it. */
export type DocumentReader = (bytes: Uint8Array, fileName: string) => Promise<ExtractedDocument>;

/**
 * Page 1 is the message: its headers (the attachments' names among them) and body. Attachments of supported types follow, one page per page of
 * theirs, titled with the attachment's name; an attachment that cannot be read is named in the message instead.
 */
export async function readEmail(
  bytes: Uint8Array,
  fileName: string,
  readAttachment: DocumentReader,
): Promise<ExtractedDocument> {
  let mail: Awaited<ReturnType<typeof simpleParser>>;
  try {
    mail = await simpleParser(Buffer.from(bytes), {
      skipImageLinks: true,
      skipTextToHtml: true,
      skipHtmlToText: true,
    });
  } catch (error) {
    throw ExtractionError.cannotRead(fileName, 'corrupt', 'the e-mail message is malformed', error);
  }
  const headers = [
    ['Subject', mail.subject],
    ['From', addresses(mail.from)],
    ['To', addresses(mail.to)],
    ['Cc', addresses(mail.cc)],
    ['Date', mail.date?.toISOString()],
    // Named as a mail client shows them, also those of a type we do not read (a signature's smime.p7s).
    ['Attachments', attachmentNames(mail.attachments)],
  ].filter((header): header is [string, string] => Boolean(header[1]));
  const body = mail.text?.trim() ? mail.text : mail.html ? htmlToText(mail.html) : '';
  const attachmentPages: ExtractedPage[] = [];
  const unreadable: string[] = [];
  for (const attachment of mail.attachments) {
    if (!attachment.filename || attachment.related) continue;
    try {
      const document = await readAttachment(attachment.content, attachment.filename);
      for (const page of document.pages) {
        attachmentPages.push({
          page: attachmentPages.length + 2,
          text: page.text,
          title: attachment.filename,
        });
      }
    } catch (error) {
      if (!(error instanceof ExtractionError) || error.reason === 'unsupported') continue;
      unreadable.push(`Attachment ${error.message}`);
    }
  }
  const message = [headers.map(([name, value]) => `${name}: ${value}`).join('\n'), body, ...unreadable].join(
    '\n\n',
  );
  const first: ExtractedPage = mail.subject
    ? { page: 1, text: message, title: mail.subject }
    : { page: 1, text: message };
  return mail.subject
    ? { pages: [first, ...attachmentPages], title: mail.subject }
    : { pages: [first, ...attachmentPages] };
}

function attachmentNames(attachments: Attachment[]): string | undefined {
  const names = attachments
    .filter((attachment) => !attachment.related)
    .map((attachment) => attachment.filename);
  return names.filter(Boolean).join(', ') || undefined;
}

function addresses(value: AddressObject | AddressObject[] | undefined): string | undefined {
  if (!value) return undefined;
  const list = (Array.isArray(value) ? value : [value]).flatMap((header) => header.value.map(formatAddress));
  return list.filter(Boolean).join(', ') || undefined;
}

// mailparser's own text quotes display names; people write them bare.
function formatAddress(address: EmailAddress): string {
  if (address.group) return `${address.name}: ${address.group.map(formatAddress).join(', ')}`;
  if (address.name && address.address) return `${address.name} <${address.address}>`;
  return address.address || address.name;
}
