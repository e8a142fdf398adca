import type { Reply } from '../api/index.ts';
import type { ConversationInput } from '../client/index.ts';
import { TerminalMarkdown } from './markdown.ts';
import { printReplySources } from './render.ts';
import type { Session } from './session.ts';

/**
 * Streams one reply to stdout as it arrives: rendered Markdown on a terminal, the raw text in a pipe.
 * Aborting `signal` cancels the request (the daemon then appends nothing).
 */
export async function streamReply(
  session: Session,
  body: ConversationInput,
  signal?: AbortSignal,
): Promise<Reply> {
  const { client, output } = session;
  const markdown = process.stdout.isTTY ? new TerminalMarkdown(output.colour) : undefined;
  const stream = await client.conversations.stream(body, { signal });
  const reply = await stream.finalReply((delta) => output.write(markdown ? markdown.push(delta) : delta));
  const rest = markdown?.end() ?? '';
  output.write(rest);
  if (!reply.message.endsWith('\n')) output.line();
  return reply;
}

export async function ask(session: Session, body: ConversationInput & { stream: boolean }): Promise<void> {
  const { client, output } = session;
  const { stream, ...turn } = body;
  if (output.json) {
    output.printJson(await client.conversations.create(turn));
    return;
  }
  let reply: Reply;
  if (stream) {
    reply = await streamReply(session, turn);
  } else {
    reply = await client.conversations.create(turn);
    output.line(reply.message);
  }
  printReplySources(output, reply.sources);
  output.notice(
    `conversation ${reply.conversation_id} (continue with --conversation ${reply.conversation_id})`,
  );
}
