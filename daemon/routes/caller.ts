import type { Context, Next } from 'koa';
import { CkbError } from '../errors.ts';
import type { Caller, KeyService } from '../services/keys.ts';
import type { AccountRecord } from '../store/records.ts';

/** Requests per key per minute, refilled continuously; 0 turns the limit off. */
function createRateLimiter(perMinute: number) {
  const buckets = new Map<string, { tokens: number; at: number }>();
  return (keyId: string): void => {
    if (perMinute <= 0) return;
    const now = Date.now();
    const bucket = buckets.get(keyId) ?? { tokens: perMinute, at: now };
    bucket.tokens = Math.min(perMinute, bucket.tokens + ((now - bucket.at) / 60_000) * perMinute);
    bucket.at = now;
    buckets.set(keyId, bucket);
    if (bucket.tokens >= 1) {
      bucket.tokens -= 1;
      return;
    }
    const retryAfter = Math.ceil(((1 - bucket.tokens) / perMinute) * 60);
    throw new CkbError('rate_limited', `too many requests for this key; retry in ${retryAfter} s`, {
      headers: { 'retry-after': String(retryAfter) },
    });
  };
}

/** Authenticates every request of a router and applies the per-key rate limit. */
export function requireKey(keys: KeyService, options: { admin: boolean; ratePerMinute: number }) {
  const limit = createRateLimiter(options.ratePerMinute);
  return async (ctx: Context, next: Next): Promise<void> => {
    const caller = await keys.authenticate(ctx.get('authorization') || undefined);
    if (options.admin) keys.requireAdmin(caller);
    limit(caller.key.id);
    ctx.state['caller'] = caller;
    await next();
  };
}

export function callerOf(ctx: Context): Caller {
  return ctx.state['caller'] as Caller;
}

export function accountOf(ctx: Context): AccountRecord {
  return callerOf(ctx).account;
}
