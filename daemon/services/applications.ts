import type {
  Application,
  CreateApplicationBody,
  UpdateApplicationBody,
} from '../../src/api/applications.ts';
import type { ListQuery } from '../../src/api/common.ts';
import { type Clock, timestamp } from '../clock.ts';
import { notFound } from '../errors.ts';
import { newId } from '../ids.ts';
import type { Store } from '../store/index.ts';
import type { AccountRecord, ApplicationRecord } from '../store/records.ts';
import type { Ingestion } from './ingestion.ts';

export function toApplication(record: ApplicationRecord): Application {
  const { id, name, description, model, system_message, created_at, updated_at } = record;
  return { id, name, description, model, system_message, created_at, updated_at };
}

/** An application of the caller's account; anything else is not found. */
export async function findApplication(
  store: Store,
  account: AccountRecord,
  id: string,
  param?: string,
): Promise<ApplicationRecord> {
  const record = await store.applications.find(account.id, id);
  if (!record) throw notFound('application', id, param);
  return record;
}

export type ApplicationService = ReturnType<typeof createApplicationService>;

export function createApplicationService(deps: { store: Store; clock: Clock; ingestion: Ingestion }) {
  const { store, clock, ingestion } = deps;
  return {
    async list(account: AccountRecord, query: ListQuery): Promise<Application[]> {
      return (await store.applications.list(account.id, query)).map(toApplication);
    },

    async create(account: AccountRecord, body: CreateApplicationBody): Promise<Application> {
      const now = timestamp(clock);
      const record: ApplicationRecord = {
        id: newId('app'),
        account_id: account.id,
        name: body.name,
        description: body.description,
        model: body.model,
        system_message: body.system_message,
        created_at: now,
        updated_at: now,
      };
      await store.applications.insert(record);
      return toApplication(record);
    },

    async get(account: AccountRecord, id: string): Promise<Application> {
      return toApplication(await findApplication(store, account, id));
    },

    async update(account: AccountRecord, id: string, body: UpdateApplicationBody): Promise<Application> {
      const changes = Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined));
      const record = await store.applications.update(account.id, id, {
        ...changes,
        updated_at: timestamp(clock),
      });
      if (!record) throw notFound('application', id);
      return toApplication(record);
    },

    /** One transaction deletes it all (store/applications.ts); ingestion under way for it stops. */
    async remove(account: AccountRecord, id: string): Promise<{ id: string; deleted: true }> {
      if (!(await store.applications.delete(account.id, id, timestamp(clock))))
        throw notFound('application', id);
      ingestion.cancelApplication(id);
      store.purges.soon();
      return { id, deleted: true };
    },
  };
}
