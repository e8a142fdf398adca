import { createInterface, emitKeypressEvents } from 'node:readline';
import { input } from '@inquirer/prompts';
import { RequestAbortedError } from '../client/index.ts';
import { streamReply } from './conversation-turn.ts';
import { EXIT, ExitError, onInterrupt } from './exit.ts';
import { printMessages, printReplySources, printSources } from './render.ts';
import type { Session } from './session.ts';

type Read = { kind: 'line'; text: string } | { kind: 'eof' } | { kind: 'interrupt' };

type ReadLine = () => Promise<Read>;

interface LineReader {
  read: ReadLine;
  /** Lets go of stdin, so a chat left with /exit ends though its input is still open. */
  close(): void;
}

/** A person at a terminal gets a prompt; piped input is read line by line, with nothing drawn on stdout. */
function lineReader(): LineReader {
  if (process.stdin.isTTY && process.stdout.isTTY) return { read: promptLine, close: () => undefined };
  const lines = createInterface({
    input: process.stdin,
    terminal: false,
    crlfDelay: Number.POSITIVE_INFINITY,
  });
  const iterator = lines[Symbol.asyncIterator]();
  return {
    async read() {
      const next = await iterator.next();
      return next.done ? { kind: 'eof' } : { kind: 'line', text: next.value };
    },
    close() {
      lines.close();
      process.stdin.destroy();
    },
  };
}

/** One prompt. Ctrl-D (or the end of piped input) must end the chat; readline alone would leave it pending. */
async function promptLine(): Promise<Read> {
  const controller = new AbortController();
  const onKey = (_text: string | undefined, key: { ctrl?: boolean; name?: string } | undefined) => {
    if (key?.ctrl && key.name === 'd') controller.abort();
  };
  const onEnd = () => controller.abort();
  if (process.stdin.isTTY) emitKeypressEvents(process.stdin);
  process.stdin.on('keypress', onKey);
  process.stdin.once('end', onEnd);
  try {
    return { kind: 'line', text: await input({ message: 'You:' }, { signal: controller.signal }) };
  } catch (error) {
    const name = (error as Error).name;
    if (name === 'AbortPromptError') return { kind: 'eof' };
    if (name === 'ExitPromptError') return { kind: 'interrupt' };
    throw error;
  } finally {
    process.stdin.off('keypress', onKey);
    process.stdin.off('end', onEnd);
  }
}

/** Runs one turn; Ctrl-C while it streams cancels this reply only (the request is aborted, nothing is kept). */
async function turn(
  session: Session,
  body: { message: string; application_id?: string; conversation_id?: string },
  signal: AbortSignal,
) {
  try {
    const reply = await streamReply(session, body, signal);
    printReplySources(session.output, reply.sources);
    return reply;
  } catch (error) {
    if (!(error instanceof RequestAbortedError)) throw error;
    session.output.line();
    session.output.warn('(reply cancelled)');
    return undefined;
  }
}

interface ChatState {
  applicationId: string;
  conversation: string | undefined;
  /** The reply being streamed, so Ctrl-C can cancel it. */
  reply: AbortController | undefined;
}

/**
 * Chats in an application, or continues a conversation (whose application it then is), showing the messages
 * so far first.
 */
export async function runChat(
  session: Session,
  target: { applicationId: string; conversationId?: string } | { conversationId: string },
): Promise<void> {
  const { client, output } = session;
  const conversation = target.conversationId
    ? await client.conversations.get(target.conversationId)
    : undefined;
  const applicationId =
    conversation?.application_id ?? ('applicationId' in target ? target.applicationId : '');
  if (conversation && 'applicationId' in target && target.applicationId !== conversation.application_id) {
    throw new ExitError(
      `conversation ${conversation.id} belongs to application ${conversation.application_id}, not ${target.applicationId}; pass --conversation alone`,
      EXIT.usage,
    );
  }
  const application = await client.applications.get(applicationId);
  output.line(output.colour.bold(`Chatting with ${application.name}`));
  output.line(
    output.colour.dim('/new starts a new conversation, /sources lists the sources, /exit or Ctrl-D leaves'),
  );
  if (conversation && conversation.messages.length > 0) {
    output.line(output.colour.dim(`Continuing ${conversation.title || conversation.id}:`));
    printMessages(output, conversation.messages);
    output.line();
  }
  const state: ChatState = { applicationId, conversation: conversation?.id, reply: undefined };
  // For the whole chat, SIGINT (Ctrl-C outside the prompt) cancels the reply in progress, never the chat; with
  // piped input there is no prompt to catch it, so between replies it leaves.
  const restore = onInterrupt(() => {
    if (state.reply) state.reply.abort();
    else if (!process.stdin.isTTY) process.exit(EXIT.interrupted);
  });
  const reader = lineReader();
  try {
    await converse(session, state, reader.read);
  } finally {
    reader.close();
    restore();
  }
}

async function converse(session: Session, state: ChatState, readLine: ReadLine): Promise<void> {
  const { client, output } = session;
  for (;;) {
    const read = await readLine();
    if (read.kind === 'eof') return;
    if (read.kind === 'interrupt') {
      process.exitCode = EXIT.interrupted;
      return;
    }
    const text = read.text.trim();
    if (text === '') continue;
    if (text === '/exit' || text === '/quit') return;
    if (text === '/new') {
      state.conversation = undefined;
      output.notice('new conversation');
      continue;
    }
    if (text === '/sources') {
      printSources(output, await client.applications.sources(state.applicationId));
      continue;
    }
    if (text.startsWith('/')) {
      output.warn(`unknown command ${text}: /new, /sources or /exit`);
      continue;
    }
    output.line();
    state.reply = new AbortController();
    const answered = await turn(
      session,
      state.conversation
        ? { message: text, conversation_id: state.conversation }
        : { message: text, application_id: state.applicationId },
      state.reply.signal,
    );
    state.reply = undefined;
    if (answered) state.conversation = answered.conversation_id;
    output.line();
  }
}
