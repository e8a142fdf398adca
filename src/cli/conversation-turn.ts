import type { Reply } from '../api/index.ts';
import type { ConversationInput } from '../client/index.ts';
import { TerminalMarkdown } from './markdown.ts';
import { printReplySources } from './render.ts';
import type { Session } from './session.ts';
import { WordWrap } from './wrap.ts';

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
  const terminal = process.stdout.isTTY === true;
  const markdown = terminal ? new TerminalMarkdown(output.colour) : undefined;
  // A terminal that reports no width (a pty nobody sized) is left to wrap lines itself.
  const wrap = terminal && process.stdout.columns > 0 ? new WordWrap(process.stdout.columns) : undefined;
  const render = (delta: string) => {
    const rendered = markdown ? markdown.push(delta) : delta;
    return wrap ? wrap.push(rendered) : rendered;
  };
  const stream = await client.conversations.stream(body, { signal });
  const reply = await stream.finalReply((delta) => output.write(render(delta)));
  const rest = markdown?.end() ?? '';
  output.write(wrap ? wrap.push(rest) + wrap.end() : rest);
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
