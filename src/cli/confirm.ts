import type { CkbClient } from '../client/index.ts';
import { plural } from './output.ts';

/** A person at a terminal is asked before a delete; scripts (no terminal) and `--yes` go ahead unasked. */
function asks(yes: boolean | undefined): boolean {
  return yes !== true && process.stdin.isTTY === true && process.stdout.isTTY === true;
}

async function confirmed(question: string): Promise<boolean> {
  const { confirm } = await import('@inquirer/prompts');
  return confirm({ message: question, default: false });
}

export async function confirmApplicationDelete(client: CkbClient, id: string, yes: boolean | undefined) {
  if (!asks(yes)) return true;
  const [application, sources, conversations] = await Promise.all([
    client.applications.get(id),
    client.applications.sources(id),
    client.applications.conversations(id),
  ]);
  return confirmed(
    `Delete the application "${application.name}" (${id}) with its ${plural(sources.length, 'source')} and ${plural(conversations.length, 'conversation')}?`,
  );
}

export async function confirmClearSources(client: CkbClient, id: string, yes: boolean | undefined) {
  if (!asks(yes)) return true;
  const [application, sources] = await Promise.all([
    client.applications.get(id),
    client.applications.sources(id),
  ]);
  return confirmed(`Delete all ${plural(sources.length, 'source')} of "${application.name}" (${id})?`);
}
