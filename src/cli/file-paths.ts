import { type Dirent, existsSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, extname, join, relative, resolve, sep } from 'node:path';
// The daemon's list is the one that decides; the CLI only refuses early what the daemon would refuse later.
import { isSupportedExtension, SUPPORTED_EXTENSIONS, withoutControlCharacters } from '../api/files.ts';
import { SOURCE_NAME_MAX_CHARACTERS } from '../api/sources.ts';

/**
 * A file to add. One found in a folder is named by its path from that folder on (`docs/guides/install.md`), so
 * same-named files stay apart in lists and citations; one given directly is named after it, as usual.
 */
export interface FileToAdd {
  path: string;
  name?: string;
}

/**
 * What `--file <paths...>` names: local files, ids of uploaded files and http(s) URLs of files, in order, with
 * the files a folder held that are not of a supported type (skipped, so the user hears of them); or why not.
 */
export type FilePaths = { ok: true; value: FileToAdd[]; skipped: string[] } | { ok: false; error: string };

export function isWebAddress(value: string): boolean {
  return /^https?:\/\//i.test(value);
}

/** An id `ckb file upload` printed (`file_…`), when no local file of that name exists. */
export function isUploadedFileId(value: string): boolean {
  return /^file_[0-9A-Z]{26}$/.test(value) && !existsSync(value);
}

/** Paths that need no upload: web addresses and files uploaded already. */
export function isRemote(path: string): boolean {
  return isWebAddress(path) || isUploadedFileId(path);
}

/** The file's name in the URL's path, or the host when the path names none (`https://example.com/`). */
export function nameFromFileUrl(url: string): string {
  const { host, pathname } = new URL(url);
  return basename(pathname) || host;
}

function isSupportedFile(path: string): boolean {
  return isSupportedExtension(extname(path).toLowerCase());
}

function isHidden(entry: Dirent): boolean {
  return entry.name.startsWith('.');
}

/**
 * The supported files in a folder and its subfolders, and the other files found (unsupported). Hidden entries are
 * skipped; symbolic links to folders are not followed, so a link loop cannot recurse forever.
 */
function filesUnder(folder: string, found: { supported: string[]; skipped: string[] }): void {
  const entries = readdirSync(folder, { withFileTypes: true })
    .filter((entry) => !isHidden(entry))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) {
      filesUnder(path, found);
      continue;
    }
    const isFile =
      entry.isFile() || (entry.isSymbolicLink() && statSync(path, { throwIfNoEntry: false })?.isFile());
    if (isFile) (isSupportedFile(path) ? found.supported : found.skipped).push(path);
  }
}

function expandOne(path: string): FilePaths {
  if (isRemote(path)) return { ok: true, value: [{ path }], skipped: [] };
  const stats = statSync(path, { throwIfNoEntry: false });
  if (stats === undefined) return { ok: false, error: `no such file or folder: ${path}` };
  if (stats.isDirectory()) {
    const found = { supported: [] as string[], skipped: [] as string[] };
    filesUnder(path, found);
    const files = found.supported.map((file) => ({ path: file, name: nameInFolder(path, file) }));
    if (files.length > 0) return { ok: true, value: files, skipped: found.skipped };
    return {
      ok: false,
      error: `no supported files in ${path} (${SUPPORTED_EXTENSIONS.join(' ')}; hidden ones are skipped)`,
    };
  }
  if (!isSupportedFile(path)) {
    return {
      ok: false,
      error: `unsupported file type: ${path} (supported: ${SUPPORTED_EXTENSIONS.join(' ')})`,
    };
  }
  return { ok: true, value: [{ path }], skipped: [] };
}

/**
 * The file's path from the folder given on, with `/` between parts and without control characters (as the
 * daemon cleans an upload's name). A path too long for a source name keeps its end, where the file's own name is.
 */
function nameInFolder(folder: string, file: string): string {
  const path = withoutControlCharacters(
    relative(dirname(resolve(folder)), resolve(file))
      .split(sep)
      .join('/'),
  );
  return path.length <= SOURCE_NAME_MAX_CHARACTERS ? path : `…${path.slice(1 - SOURCE_NAME_MAX_CHARACTERS)}`;
}

/**
 * Folders become their supported files, walked recursively in name order; a file named twice (directly and
 * inside a folder) is added once. Checked before any request, so a typo is a usage error, not a half-done upload.
 */
export function expandFilePaths(paths: readonly string[]): FilePaths {
  const files: FileToAdd[] = [];
  const skipped: string[] = [];
  const seen = new Set<string>();
  for (const path of paths) {
    const expanded = expandOne(path);
    if (!expanded.ok) return expanded;
    skipped.push(...expanded.skipped);
    for (const file of expanded.value) {
      const key = isRemote(file.path) ? file.path : resolve(file.path);
      if (seen.has(key)) continue;
      seen.add(key);
      files.push(file);
    }
  }
  return { ok: true, value: files, skipped };
}

/**
 * The name a file's source has: its path within a folder, else the file's own name as the daemon keeps it
 * (control characters removed), as `source add --file` names it.
 */
export function sourceNameOf(file: FileToAdd): string {
  return file.name ?? withoutControlCharacters(basename(file.path)).trim();
}

/**
 * Which source names files under these paths can have: those within a folder begin with the folder's own name;
 * a file given alone has its name. `ckb sync --delete` removes only sources named so.
 */
export function namesUnder(paths: readonly string[]): (name: string) => boolean {
  const prefixes: string[] = [];
  const names = new Set<string>();
  for (const path of paths) {
    if (statSync(path, { throwIfNoEntry: false })?.isDirectory())
      prefixes.push(`${withoutControlCharacters(basename(resolve(path)))}/`);
    else names.add(sourceNameOf({ path }));
  }
  return (name) => names.has(name) || prefixes.some((prefix) => name.startsWith(prefix));
}

/** `3 files of other types were skipped (.png, .xlsx)`: what a folder held that will not be added. */
export function skippedNotice(skipped: readonly string[]): string | undefined {
  if (skipped.length === 0) return undefined;
  const types = [...new Set(skipped.map((path) => extname(path).toLowerCase() || 'no extension'))].sort();
  const files = skipped.length === 1 ? '1 file' : `${skipped.length.toLocaleString('en-US')} files`;
  return `skipped ${files} of unsupported types (${types.join(', ')}); supported: ${SUPPORTED_EXTENSIONS.join(' ')}`;
}
