import type { Logger } from '../logger.ts';
import type { ChunkIndex } from '../store/chunk-index.ts';
import type { Store } from '../store/index.ts';
import type { ApplicationRecord, SourceRecord } from '../store/records.ts';

export interface Deletion {
  deleteApplication(application: ApplicationRecord): Promise<void>;
  deleteSources(sources: SourceRecord[]): Promise<void>;
  deleteConversation(conversationId: string): Promise<void>;
  /** Finishes deletes a crash cut short and removes what a crash left half made. */
  recover(): Promise<void>;
}

/**
 * Deletes span several tables, and LanceDB commits one table at a time. So a delete first marks its root
 * record (`deleting`), which hides it at once, then removes children bottom-up, and the root last. A crash
 * anywhere in between leaves the mark, and `recover` at the next start finishes the job.
 */
export function createDeletion(deps: {
  store: Store;
  chunkIndex: ChunkIndex;
  cancelIngestion: (sourceIds: string[]) => void;
  logger: Logger;
}): Deletion {
  const { store, chunkIndex, cancelIngestion, logger } = deps;

  async function deleteSources(sources: SourceRecord[]): Promise<void> {
    if (sources.length === 0) return;
    const ids = sources.map((source) => source.id);
    await store.sources.patch(
      sources.filter((source) => !source.deleting).map((source) => source.id),
      { deleting: true },
    );
    cancelIngestion(ids);
    await chunkIndex.deleteBySources(ids);
    await store.sources.delete(ids);
  }

  async function deleteConversations(conversationIds: string[]): Promise<void> {
    if (conversationIds.length === 0) return;
    const messages = conversationIds.flatMap((id) =>
      store.messages.childrenOf(id).map((message) => message.id),
    );
    // The conversation row first: messages a crash leaves without their conversation are removed by `recover`.
    await store.conversations.delete(conversationIds);
    await store.messages.delete(messages);
  }

  async function deleteApplication(application: ApplicationRecord): Promise<void> {
    if (!application.deleting) await store.applications.put({ ...application, deleting: true });
    await deleteSources(store.sources.childrenOf(application.id));
    await deleteConversations(
      store.conversations.childrenOf(application.id).map((conversation) => conversation.id),
    );
    await store.applications.delete([application.id]);
  }

  async function recover(): Promise<void> {
    for (const application of store.applications.filter((app) => app.deleting === true)) {
      logger.log('info', 'finishing an interrupted application delete', { application_id: application.id });
      await deleteApplication(application);
    }
    const applicationIds = new Set(store.applications.values().map((app) => app.id));
    await deleteSources(
      store.sources.filter(
        (source) => source.deleting === true || !applicationIds.has(source.application_id),
      ),
    );
    await deleteConversations(
      store.conversations
        .filter((conversation) => !applicationIds.has(conversation.application_id))
        .map((c) => c.id),
    );
    // A turn writes its messages before a new conversation's row, so messages without a conversation are the
    // remains of a turn that never completed.
    const conversationIds = new Set(store.conversations.values().map((conversation) => conversation.id));
    const halfTurns = store.messages.filter((message) => !conversationIds.has(message.conversation_id));
    if (halfTurns.length > 0)
      logger.log('info', 'removing messages of an unfinished turn', { count: halfTurns.length });
    await store.messages.delete(halfTurns.map((message) => message.id));
  }

  return {
    deleteApplication,
    deleteSources,
    deleteConversation: (id) => deleteConversations([id]),
    recover,
  };
}
