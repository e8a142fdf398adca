import type { Application, Conversation, Deleted, Message, ReplySource, Source } from '../api/index.ts';
import { formatInterval } from './duration.ts';
import { type Output, oneLine, shortTime } from './output.ts';

export function printApplication(output: Output, app: Application): void {
  if (output.json) {
    output.printJson(app);
    return;
  }
  output.printFields([
    ['id', app.id],
    ['name', app.name],
    ['description', app.description],
    ['model', app.model],
    ['system message', oneLine(app.system_message, 100)],
    ['created', app.created_at],
    ['updated', app.updated_at],
  ]);
}

export function printDeleted(output: Output, deleted: Deleted): void {
  if (output.json) {
    output.printJson(deleted);
    return;
  }
  if (!output.quiet) output.line(`Deleted ${deleted.id}`);
}

export function statusText(output: Output, status: Source['embed_status']): string {
  const paint = {
    PENDING: output.colour.dim,
    PROCESSING: output.colour.cyan,
    COMPLETED: output.colour.green,
    FAILED: output.colour.red,
  };
  return paint[status](status);
}

export function printSources(output: Output, sources: readonly Source[]): void {
  if (output.json) {
    output.printJson(sources);
    return;
  }
  output.printTable(sources, [
    { header: 'ID', value: (source) => source.id },
    { header: 'NAME', value: (source) => oneLine(source.name, 40) },
    { header: 'TYPE', value: (source) => source.type },
    { header: 'STATUS', value: (source) => source.embed_status },
    { header: 'PAGES', value: (source) => String(source.pages), numeric: true },
    { header: 'CHUNKS', value: (source) => String(source.chunks), numeric: true },
    { header: 'CREATED', value: (source) => shortTime(source.created_at) },
  ]);
}

export function printSource(output: Output, source: Source): void {
  if (output.json) {
    output.printJson(source);
    return;
  }
  const content = Array.isArray(source.content) ? source.content.join(' ') : (source.content ?? '');
  output.printFields([
    ['id', source.id],
    ['application', source.application_id],
    ['name', source.name],
    ['type', source.type],
    ['content', oneLine(content, 100)],
    ['status', statusText(output, source.embed_status)],
    ...(source.embed_status_message ? [['message', source.embed_status_message] as [string, string]] : []),
    ['pages', String(source.pages)],
    ['chunks', String(source.chunks)],
    ['characters', String(source.characters)],
    ...(source.content_hash ? [['content hash', source.content_hash] as [string, string]] : []),
    ...(['url', 'urls', 'website'].includes(source.type)
      ? [
          [
            'synced',
            source.sync_interval === null ? 'when asked' : `every ${formatInterval(source.sync_interval)}`,
          ] as [string, string],
        ]
      : []),
    ['attempts', String(source.attempts)],
    ...(source.last_error ? [['last error', source.last_error] as [string, string]] : []),
    ['created', source.created_at],
    ['updated', source.updated_at],
  ]);
}

export function printConversations(output: Output, conversations: readonly Conversation[]): void {
  if (output.json) {
    output.printJson(conversations);
    return;
  }
  output.printTable(conversations, [
    { header: 'ID', value: (conversation) => conversation.id },
    { header: 'TITLE', value: (conversation) => oneLine(conversation.title, 50) },
    { header: 'APPLICATION', value: (conversation) => conversation.application_id },
    // Lists leave `messages` empty by contract; the count is its own field.
    { header: 'MESSAGES', value: (conversation) => String(conversation.message_count), numeric: true },
    { header: 'UPDATED', value: (conversation) => shortTime(conversation.updated_at) },
  ]);
}

/** One line per cited source: name, page and score, so a reader can check the answer. */
export function formatReplySources(output: Output, sources: readonly ReplySource[]): string[] {
  return sources.map((source, index) => {
    const where = source.url ? ` ${output.colour.dim(source.url)}` : '';
    return `  [${index + 1}] ${source.source}, page ${source.page} ${output.colour.dim(`(score ${source.score.toFixed(2)})`)}${where}`;
  });
}

export function printReplySources(output: Output, sources: readonly ReplySource[]): void {
  if (sources.length === 0) return;
  output.line(output.colour.bold('Sources:'));
  for (const text of formatReplySources(output, sources)) output.line(text);
}

/** A conversation's messages in order, each under who wrote it, replies with their sources. */
export function printMessages(output: Output, messages: readonly Message[]): void {
  for (const message of messages) {
    output.line();
    output.line(output.colour.bold(message.role === 'user' ? 'You:' : 'Assistant:'));
    output.line(message.content);
    for (const text of formatReplySources(output, message.sources)) output.line(text);
  }
}
