/**
 * Rows held by sources waiting for their commit. Reservations are served in order; one larger than the limit
 * passes once nothing else is held, so every source gets its turn.
 */
export function createRowBudget(limit: number) {
  let held = 0;
  const waiting: { rows: number; wake(): void }[] = [];
  const fits = (rows: number): boolean => held === 0 || held + rows <= limit;
  return {
    async reserve(rows: number): Promise<void> {
      if (waiting.length === 0 && fits(rows)) {
        held += rows;
        return;
      }
      // `release` counts the rows in before waking, so no later reservation can slip in between.
      await new Promise<void>((wake) => waiting.push({ rows, wake }));
    },
    release(rows: number): void {
      held -= rows;
      while (waiting[0] && fits(waiting[0].rows)) {
        const next = waiting.shift()!;
        held += next.rows;
        next.wake();
      }
    },
  };
}
