import { z } from 'zod';

export const SearchBody = z.object({
  query: z.string().trim().min(1, 'query must not be empty').max(32_000),
  limit: z.number().int().min(1).max(50).default(5),
});
export type SearchBody = z.infer<typeof SearchBody>;

export const SearchResult = z.object({
  source: z.string(),
  source_id: z.string(),
  page: z.number().int(),
  score: z.number(),
  text: z.string(),
  url: z.string().optional(),
});
export type SearchResult = z.infer<typeof SearchResult>;
