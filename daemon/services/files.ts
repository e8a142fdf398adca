import {
  createHash,
  createHmac,
  createSecretKey,
  type KeyObject,
  randomBytes,
  timingSafeEqual,
} from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ListQuery } from '../../src/api/common.ts';
import { endpoint, pathOf } from '../../src/api/endpoints.ts';
import type { FileObject, PresignedUpload } from '../../src/api/files.ts';
import { isSupportedExtension, SUPPORTED_EXTENSIONS, withoutControlCharacters } from '../../src/api/files.ts';
import { type Clock, timestamp } from '../clock.ts';
import { syncDirectory } from '../durable.ts';
import { CkbError, diskFull, forbidden, invalidRequest, isDiskFullError, notFound } from '../errors.ts';
import { newId } from '../ids.ts';
import type { Store } from '../store/index.ts';
import type { AccountRecord, FileRecord } from '../store/records.ts';
import type { Caller, KeyService } from './keys.ts';
import { exceeded, type StorageQuota } from './storage-quota.ts';

export const PRESIGNED_URL_LIFETIME_SECONDS = 15 * 60;

export function toFileObject(record: FileRecord): FileObject {
  return { id: record.id, name: record.name, uploaded_at: record.uploaded_at, bytes: record.bytes };
}

/** Where an uploaded file's bytes live; the extension is kept so extractors can tell the format. */
export function storedFilePath(filesDir: string, record: Pick<FileRecord, 'id' | 'name'>): string {
  return join(filesDir, `${record.id}${extname(record.name).toLowerCase()}`);
}

/**
 * The key that signs upload addresses, kept in the database so every process that shares it accepts the
 * others' addresses. A data directory from before kept it in `data/upload-secret`; its addresses stay valid.
 */
async function loadSecret(store: Store, dataDir: string): Promise<KeyObject> {
  const earlier = await readFile(join(dataDir, 'upload-secret')).catch(() => undefined);
  const hex = await store.settings.getOrCreate('upload_secret', () =>
    (earlier ?? randomBytes(32)).toString('hex'),
  );
  // Made a key object once: given as bytes, the secret was imported again on every signature, which cost
  // more than the HMAC itself.
  return createSecretKey(Buffer.from(hex, 'hex'));
}

export interface UploadRequest {
  fileId: string;
  accountId: string;
  keyId: string;
  expires: number;
  signature: string;
  name: string | undefined;
  headerName: string | undefined;
  contentLength: number | undefined;
  body: Readable;
}

function fileNameFromDisposition(header: string | undefined): string | undefined {
  if (!header) return undefined;
  const encoded = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(header)?.[1];
  if (encoded) {
    try {
      return decodeURIComponent(encoded);
    } catch {
      // A client's malformed header is its mistake, not a fault of ours (it answered 500).
      throw invalidRequest(
        "the Content-Disposition header's filename* is not valid percent-encoded UTF-8",
        'content-disposition',
      );
    }
  }
  return /filename\s*=\s*"?([^";]+)"?/i.exec(header)?.[1];
}

/** Keeps the base name only: a client-chosen name never chooses where bytes are written. */
function safeFileName(name: string): string {
  const base = name.split(/[/\\]/).pop() ?? '';
  return withoutControlCharacters(base).trim().slice(0, 255);
}

/**
 * Which leftovers of a crash to remove at start: every one (`all`, when the files are this process's alone, so
 * no upload can be running), only those older than an upload address lives (`stale`, when other processes share
 * the directory and may be receiving a file), or none (a worker, which receives no uploads).
 */
export type LeftoverUploads = 'all' | 'stale' | 'none';

/** Bytes a crash left behind: a partial upload (`.part`), or a file whose record never committed. */
async function removeLeftovers(filesDir: string, store: Store, which: LeftoverUploads, now: number) {
  if (which === 'none') return;
  const known = await store.files.allIds();
  const written = PRESIGNED_URL_LIFETIME_SECONDS * 1000;
  for (const name of await readdir(filesDir)) {
    const id = name.split('.')[0] ?? '';
    if (!name.endsWith('.part') && known.has(id)) continue;
    const path = join(filesDir, name);
    // An upload keeps writing its .part file; one untouched for as long as an address lives has stopped.
    if (which === 'stale') {
      const modified = await stat(path).then(
        (info) => info.mtimeMs,
        () => now,
      );
      if (now - modified < written) continue;
    }
    await rm(path, { force: true });
  }
}

export type FileService = Awaited<ReturnType<typeof createFileService>>;

export async function createFileService(deps: {
  store: Store;
  clock: Clock;
  keys: KeyService;
  quota: StorageQuota;
  /** The home's data directory, where an earlier version kept the upload secret. */
  dataDir: string;
  filesDir: string;
  leftoverUploads: LeftoverUploads;
  uploadLimitBytes: number;
}) {
  const { store, clock, keys, quota, dataDir, filesDir, uploadLimitBytes } = deps;
  await mkdir(filesDir, { recursive: true, mode: 0o700 });
  await removeLeftovers(filesDir, store, deps.leftoverUploads, clock.now().getTime());
  const secret = await loadSecret(store, dataDir);
  const uploading = new Set<string>();

  /** The signature binds the id to its account, key, expiry and name, so none of them can be changed. */
  function sign(fileId: string, accountId: string, keyId: string, expires: number, name: string): string {
    return createHmac('sha256', secret)
      .update(`${fileId}\n${accountId}\n${keyId}\n${expires}\n${name}`)
      .digest('hex');
  }

  async function checkAddress(request: UploadRequest): Promise<void> {
    const expected = Buffer.from(
      sign(request.fileId, request.accountId, request.keyId, request.expires, request.name ?? ''),
      'hex',
    );
    const given = Buffer.from(request.signature, 'hex');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw forbidden('the upload address is invalid: its signature does not match');
    }
    if (request.expires * 1000 < clock.now().getTime()) {
      throw forbidden('the upload address has expired: ask for a new one with GET /files/presigned-url');
    }
    if (uploading.has(request.fileId) || (await store.files.exists(request.fileId))) {
      throw forbidden('the upload address was already used: ask for a new one with GET /files/presigned-url');
    }
    if (!(await keys.isActive(request.keyId))) {
      throw forbidden(
        'the key that asked for this upload address was revoked: ask for a new one with a valid key',
      );
    }
  }

  function checkedName(given: string | undefined): string {
    const name = safeFileName(given ?? '');
    if (!name) {
      throw invalidRequest(
        'the file has no name: pass ?name= when pre-signing, or an X-File-Name header',
        'name',
      );
    }
    const extension = extname(name).toLowerCase();
    if (!isSupportedExtension(extension)) {
      throw new CkbError(
        'unsupported_media_type',
        `${name}: unsupported file type "${extension || 'none'}"; supported: ${SUPPORTED_EXTENSIONS.join(' ')}`,
        { param: 'name' },
      );
    }
    return name;
  }

  function tooLarge(): CkbError {
    return new CkbError(
      'payload_too_large',
      `the file is larger than the upload limit of ${uploadLimitBytes} bytes`,
    );
  }

  /** Streams the body to a `.part` file, renamed into place once every byte is there. */
  async function receive(request: UploadRequest, name: string): Promise<FileRecord> {
    if (request.contentLength !== undefined && request.contentLength > uploadLimitBytes) throw tooLarge();
    const room = await quota.remaining(request.accountId);
    const overQuota = () => exceeded(quota.limitBytes);
    if (request.contentLength !== undefined && request.contentLength > room) throw overQuota();
    const record = { id: request.fileId, account_id: request.accountId, name };
    const path = storedFilePath(filesDir, record);
    const temporary = `${path}.part`;
    const hash = createHash('sha256');
    let bytes = 0;
    const meter = new Transform({
      transform(chunk: Buffer, _encoding, callback) {
        bytes += chunk.length;
        if (bytes > uploadLimitBytes) return callback(tooLarge());
        if (bytes > room) return callback(overQuota());
        hash.update(chunk);
        callback(null, chunk);
      },
    });
    try {
      // Durable before it is acknowledged: the bytes (flush fsyncs before closing), then their name.
      await pipeline(request.body, meter, createWriteStream(temporary, { mode: 0o600, flush: true }));
      await rename(temporary, path);
      await syncDirectory(filesDir);
    } catch (error) {
      await rm(temporary, { force: true });
      throw isDiskFullError(error) ? diskFull(error) : error;
    }
    return { ...record, bytes, sha256: hash.digest('hex'), uploaded_at: timestamp(clock) };
  }

  return {
    filesDir,

    presign(caller: Caller, baseUrl: string, name: string | undefined): PresignedUpload {
      if (name !== undefined) checkedName(name);
      const fileId = newId('file');
      const expires = Math.floor(clock.now().getTime() / 1000) + PRESIGNED_URL_LIFETIME_SECONDS;
      const { account, key } = caller;
      const query = new URLSearchParams({
        account: account.id,
        key: key.id,
        expires: String(expires),
        signature: sign(fileId, account.id, key.id, expires, name ?? ''),
      });
      if (name !== undefined) query.set('name', name);
      const path = pathOf(endpoint('uploadFile'), { id: fileId });
      return { file_id: fileId, presigned_url: `${baseUrl}${path}?${query}` };
    },

    /** Streams the body to disk; the file exists (and the address is spent) only once every byte is written. */
    async upload(request: UploadRequest, disposition: string | undefined): Promise<FileObject> {
      await checkAddress(request);
      const name = checkedName(request.name ?? request.headerName ?? fileNameFromDisposition(disposition));
      uploading.add(request.fileId);
      try {
        const record = await receive(request, name);
        try {
          await store.files.insert(record);
        } catch (error) {
          await rm(storedFilePath(filesDir, record), { force: true });
          throw error;
        }
        return toFileObject(record);
      } finally {
        uploading.delete(request.fileId);
      }
    },

    async list(account: AccountRecord, query: ListQuery): Promise<FileObject[]> {
      return (await store.files.list(account.id, query)).map(toFileObject);
    },

    async find(account: AccountRecord, id: string, param?: string): Promise<FileRecord> {
      const record = await store.files.find(account.id, id);
      if (!record) throw notFound('file', id, param);
      return record;
    },

    /** Deletes a file no source uses (409 naming those that do), then its bytes. */
    async remove(account: AccountRecord, id: string): Promise<{ id: string; deleted: true }> {
      const record = await this.find(account, id);
      if (!(await store.files.delete(account.id, id))) throw notFound('file', id);
      await rm(storedFilePath(filesDir, record), { force: true });
      return { id, deleted: true };
    },
  };
}
