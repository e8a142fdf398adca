import type { Clock } from '../clock.ts';
import type { DaemonConfig } from '../config.ts';
import type { Embedder } from '../ingest/embed/index.ts';
import type { Logger } from '../logger.ts';
import type { Responder } from '../respond/types.ts';
import { createRetriever } from '../retrieve/index.ts';
import type { ChunkIndex } from '../store/chunk-index.ts';
import type { Store } from '../store/index.ts';
import { createApplicationService } from './applications.ts';
import { createChatCompletionService } from './chat-completions.ts';
import { createConversationService } from './conversations.ts';
import { createDeletion } from './deletion.ts';
import { createFileService } from './files.ts';
import { createIngestion } from './ingestion.ts';
import { createKeyService } from './keys.ts';
import { createSearchService } from './search.ts';
import { createSourceService } from './sources.ts';

export interface ServiceDependencies {
  store: Store;
  chunkIndex: ChunkIndex;
  embedder: Embedder;
  responder: Responder;
  config: DaemonConfig;
  clock: Clock;
  logger: Logger;
}

export type Services = Awaited<ReturnType<typeof createServices>>;

export async function createServices(deps: ServiceDependencies) {
  const { store, chunkIndex, embedder, responder, config, clock, logger } = deps;
  const files = await createFileService({
    store,
    clock,
    dataDir: config.dataDir,
    uploadLimitBytes: config.limits.upload_bytes,
  });
  const ingestion = createIngestion({
    store,
    chunkIndex,
    embedder,
    config,
    clock,
    logger,
    filesDir: files.filesDir,
  });
  const deletion = createDeletion({ store, chunkIndex, cancelIngestion: ingestion.cancel, logger });
  const retriever = createRetriever({ chunkIndex, embedder });
  const applications = createApplicationService({ store, clock, deletion });
  return {
    keys: createKeyService({ store, clock }),
    applications,
    sources: createSourceService({ store, clock, chunkIndex, files, ingestion, deletion }),
    files,
    conversations: createConversationService({ store, clock, retriever, responder, deletion }),
    search: createSearchService({ store, retriever }),
    chatCompletions: createChatCompletionService({ store, clock, retriever, responder, applications }),
    ingestion,
    deletion,
  };
}
