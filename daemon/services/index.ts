import { VERSION } from '../../src/version.ts';
import type { Clock } from '../clock.ts';
import type { DaemonConfig } from '../config.ts';
import type { Embedder } from '../embed/index.ts';
import type { Logger } from '../logger.ts';
import type { Responder } from '../respond/types.ts';
import { createRetriever } from '../retrieve/index.ts';
import type { Store } from '../store/index.ts';
import { createApplicationService } from './applications.ts';
import { createChatCompletionService } from './chat-completions.ts';
import { createConversationService } from './conversations.ts';
import { createFileService, type LeftoverUploads } from './files.ts';
import { createHealthService } from './health.ts';
import type { Ingestion } from './ingestion.ts';
import { createKeyService } from './keys.ts';
import { createSearchService } from './search.ts';
import { createSourceService } from './sources.ts';
import { createStorageQuota } from './storage-quota.ts';

export interface ServiceDependencies {
  store: Store;
  ingestion: Ingestion;
  embedder: Embedder;
  responder: Responder;
  config: DaemonConfig;
  clock: Clock;
  logger: Logger;
  /** Which upload files left by a crash are removed at start (services/files.ts `removeLeftovers`). */
  leftoverUploads: LeftoverUploads;
  /** Whether this process runs ingestion jobs, for GET /health. */
  ingests: boolean;
}

export type Services = Awaited<ReturnType<typeof createServices>>;

export async function createServices(deps: ServiceDependencies) {
  const { store, ingestion, embedder, responder, config, clock, leftoverUploads } = deps;
  const keys = createKeyService({ store, clock });
  const quota = createStorageQuota({ store, limitBytes: config.limits.account_storage_bytes });
  const files = await createFileService({
    store,
    clock,
    keys,
    quota,
    dataDir: config.dataDir,
    filesDir: config.filesDir,
    leftoverUploads,
    uploadLimitBytes: config.limits.upload_bytes,
  });
  const retriever = createRetriever({ chunkIndex: store.chunks, embedder });
  const applications = createApplicationService({ store, clock, ingestion });
  return {
    keys,
    applications,
    sources: createSourceService({ store, clock, files, ingestion, quota }),
    files,
    conversations: createConversationService({ store, clock, retriever, responder }),
    search: createSearchService({ store, retriever }),
    chatCompletions: createChatCompletionService({ store, clock, retriever, responder, applications }),
    health: createHealthService({ store, version: VERSION, ingests: deps.ingests }),
    ingestion,
  };
}
