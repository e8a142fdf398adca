import { type Dirent, readdirSync, statSync } from 'node:fs';
import { basename, extname, join, relative, resolve, sep } from 'node:path';
// The daemon's list is the one that decides; the CLI only refuses early what the daemon would refuse later.
import { isSupportedExtension, SUPPORTED_EXTENSIONS } from '../api/files.ts';

/**
 * A file to add and its source's name: a file found in a folder is named by its path within that folder, so
 * `guides/install.md` and `api/install.md` stay apart in citations; a file or URL given directly keeps its name.
 */
export interface FileToAdd {
  path: string;
  name: string;
}

/** What `--file <paths...>` names: local files and http(s) URLs of files, in order, or why not. */
export type FilePaths = { ok: true; value: FileToAdd[] } | { ok: false; error: string };

export function isWebAddress(value: string): boolean {
  return /^https?:\/\//i.test(value);
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

/** Hidden entries are skipped; symbolic links to folders are not followed, so a link loop cannot recurse forever. */
function supportedFilesUnder(folder: string): string[] {
  const entries = readdirSync(folder, { withFileTypes: true })
    .filter((entry) => !isHidden(entry))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return entries.flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return supportedFilesUnder(path);
    const isFile =
      entry.isFile() || (entry.isSymbolicLink() && statSync(path, { throwIfNoEntry: false })?.isFile());
    return isFile && isSupportedFile(path) ? [path] : [];
  });
}

function expandOne(path: string): FilePaths {
  if (isWebAddress(path)) return { ok: true, value: [{ path, name: nameFromFileUrl(path) }] };
  const stats = statSync(path, { throwIfNoEntry: false });
  if (stats === undefined) return { ok: false, error: `no such file or folder: ${path}` };
  if (stats.isDirectory()) {
    const files = supportedFilesUnder(path).map((file) => ({
      path: file,
      name: relative(path, file).split(sep).join('/'),
    }));
    if (files.length > 0) return { ok: true, value: files };
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
  return { ok: true, value: [{ path, name: basename(path) }] };
}

/**
 * Folders become their supported files, walked recursively in name order; a file named twice (directly and
 * inside a folder) is added once. Checked before any request, so a typo is a usage error, not a half-done upload.
 */
export function expandFilePaths(paths: readonly string[]): FilePaths {
  const files: FileToAdd[] = [];
  const seen = new Set<string>();
  for (const path of paths) {
    const expanded = expandOne(path);
    if (!expanded.ok) return expanded;
    for (const file of expanded.value) {
      const key = isWebAddress(file.path) ? file.path : resolve(file.path);
      if (seen.has(key)) continue;
      seen.add(key);
      files.push(file);
    }
  }
  return { ok: true, value: files };
}
