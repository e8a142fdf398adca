import type { Embedder, EmbedderRecipe } from './embedder.ts';
import { createHashedEmbedder } from './hashed.ts';

/** Builds the embedder a recipe describes, in whichever thread calls it; the id and vectors are the original's. */
export function embedderFromRecipe(recipe: EmbedderRecipe): Embedder {
  switch (recipe.kind) {
    case 'hashed':
      return createHashedEmbedder({ dimensions: recipe.dimensions });
  }
}
