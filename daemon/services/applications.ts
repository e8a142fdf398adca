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
import type { Deletion } from './deletion.ts';
import { newestFirst } from './paging.ts';

export function toApplication(record: ApplicationRecord): Application {
  const { id, name, description, model, system_message, created_at, updated_at } = record;
  return { id, name, description, model, system_message, created_at, updated_at };
}

/** An application of the caller's account that is not being deleted; anything else is not found. */
export function findApplication(
  store: Store,
  account: AccountRecord,
  id: string,
  param?: string,
): ApplicationRecord {
  const record = store.applications.get(id);
  if (!record || record.account_id !== account.id || record.deleting)
    throw notFound('application', id, param);
  return record;
}

/**
 * Whether an application is still there and not being deleted. A delete lists the application's children once,
 * after marking it, so a child whose write lands after that list must check this afterwards and remove itself.
 */
export function isLiveApplication(store: Store, id: string): boolean {
  const record = store.applications.get(id);
  return record !== undefined && !record.deleting;
}

export type ApplicationService = ReturnType<typeof createApplicationService>;

export function createApplicationService(deps: { store: Store; clock: Clock; deletion: Deletion }) {
  const { store, clock, deletion } = deps;
  return {
    list(account: AccountRecord, query: ListQuery): Application[] {
      const records = store.applications.filter((app) => app.account_id === account.id && !app.deleting);
      return newestFirst(records, query).map(toApplication);
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
      await store.applications.put(record);
      return toApplication(record);
    },

    get(account: AccountRecord, id: string): Application {
      return toApplication(findApplication(store, account, id));
    },

    async update(account: AccountRecord, id: string, body: UpdateApplicationBody): Promise<Application> {
      const current = findApplication(store, account, id);
      const changes = Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined));
      const record: ApplicationRecord = { ...current, ...changes, updated_at: timestamp(clock) };
      await store.applications.put(record);
      return toApplication(record);
    },

    async remove(account: AccountRecord, id: string): Promise<{ id: string; deleted: true }> {
      await deletion.deleteApplication(findApplication(store, account, id));
      return { id, deleted: true };
    },
  };
}
