import { z } from 'zod';
import { Timestamp } from './common.ts';

export const MODEL_NAMES = ['lm-3.5-turbo', 'lm-4'] as const;
export type ModelName = (typeof MODEL_NAMES)[number];

/** interface-spec.md spells the default with a dot in one place; that spelling is accepted and stored hyphenated. */
const DOTTED_ALIAS = 'lm-3.5.turbo';

export const ModelInput = z
  .enum([...MODEL_NAMES, DOTTED_ALIAS], { error: () => `model must be one of ${MODEL_NAMES.join(', ')}` })
  .transform((model): ModelName => (model === DOTTED_ALIAS ? 'lm-3.5-turbo' : model));

const Name = z
  .string()
  .trim()
  .min(1, 'name must not be empty')
  .max(200, 'name must be at most 200 characters');
const Description = z.string().max(2000, 'description must be at most 2000 characters');
const SystemMessage = z.string().max(20_000, 'system_message must be at most 20000 characters');

export const Application = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  model: z.enum(MODEL_NAMES),
  system_message: z.string(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Application = z.infer<typeof Application>;

export const CreateApplicationBody = z.object({
  name: Name,
  description: Description.default(''),
  model: ModelInput.default('lm-3.5-turbo'),
  system_message: SystemMessage.default(''),
});
export type CreateApplicationBody = z.infer<typeof CreateApplicationBody>;

export const UpdateApplicationBody = z.object({
  name: Name.optional(),
  description: Description.optional(),
  model: ModelInput.optional(),
  system_message: SystemMessage.optional(),
});
export type UpdateApplicationBody = z.infer<typeof UpdateApplicationBody>;
