import { countTokens as countO200k } from 'gpt-tokenizer/encoding/o200k_base';
import type { Usage } from './types.ts';

/** Token count with the o200k encoding, used wherever a provider reports no usage (contract: Conversations). */
export function countTokens(text: string): number {
  return text.length === 0 ? 0 : countO200k(text);
}

export function usageOf(promptTokens: number, completionTokens: number): Usage {
  return {
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens,
    total_tokens: promptTokens + completionTokens,
  };
}
