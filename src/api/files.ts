import { z } from 'zod';
import { Timestamp } from './common.ts';

export const FileObject = z.object({
  id: z.string(),
  name: z.string(),
  uploaded_at: Timestamp,
  /** ext: size of the stored file in bytes. */
  bytes: z.number().int(),
});
export type FileObject = z.infer<typeof FileObject>;

export const PresignQuery = z.object({
  name: z.string().min(1).max(255).optional(),
});

export const PresignedUpload = z.object({
  file_id: z.string(),
  presigned_url: z.string(),
});
export type PresignedUpload = z.infer<typeof PresignedUpload>;

export const UploadQuery = z.object({
  account: z.string(),
  /** The key that asked for the address: revoking it spends the address. Covered by the signature. */
  key: z.string(),
  expires: z.coerce.number().int(),
  signature: z.string(),
  /** The file name given at pre-sign time; covered by the signature. */
  name: z.string().max(255).optional(),
});

export const SUPPORTED_EXTENSIONS = [
  '.pdf',
  '.doc',
  '.docx',
  '.ppt',
  '.pptx',
  '.md',
  '.json',
  '.eml',
  '.html',
  '.txt',
] as const;
export type SupportedExtension = (typeof SUPPORTED_EXTENSIONS)[number];

export function isSupportedExtension(extension: string): extension is SupportedExtension {
  return (SUPPORTED_EXTENSIONS as readonly string[]).includes(extension);
}

/** A name without control characters: how the daemon cleans an upload's name, and the CLI a source's. */
export function withoutControlCharacters(name: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is being removed
  return name.replace(/[\u0000-\u001f\u007f]/g, '');
}
