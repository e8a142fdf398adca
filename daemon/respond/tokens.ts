import type { Usage } from '../../src/api/conversations.ts';
import { countTokens as countO200k } from '../text/token-count.ts';

/**
 * Token count with the o200k encoding, used wherever a provider reports no usage (contract: Conversations). The
 * chunker's exact counter, not the library's encoder: that one loads 17 MB of tables into the daemon's heap, and
 * throws on text that spells a special token such as `<|endoftext|>`, which a user may well type.
 */
export function countTokens(text: string): number {
  return countO200k(text);
}

export function usageOf(promptTokens: number, completionTokens: number): Usage {
  return {
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens,
    total_tokens: promptTokens + completionTokens,
  };
}
