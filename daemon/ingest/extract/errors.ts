import { SourceError } from '../../source-error.ts';

/** Why a file yielded no text; stable values callers may branch on. */
export const EXTRACTION_FAILURES = [
  'empty',
  'encrypted',
  'corrupt',
  'mislabelled',
  'no_text',
  'unsupported',
  'too_large',
  'timeout',
  'out_of_memory',
  'aborted',
  'unreadable',
] as const;
export type ExtractionFailure = (typeof EXTRACTION_FAILURES)[number];

export const ENCRYPTED_DETAIL =
  'the file is encrypted (password protected); remove the password and upload it again';

/** A file that could not be turned into text. The message is one sentence a user can act on. */
export class ExtractionError extends SourceError {
  override name = 'ExtractionError';
  readonly reason: ExtractionFailure;

  constructor(reason: ExtractionFailure, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.reason = reason;
  }

  /** Builds the message every failure shares: "report.pdf could not be read: the file is encrypted". */
  static cannotRead(
    fileName: string,
    reason: ExtractionFailure,
    detail: string,
    cause?: unknown,
  ): ExtractionError {
    return new ExtractionError(
      reason,
      `${fileName} could not be read: ${detail}`,
      cause === undefined ? {} : { cause },
    );
  }
}
