// The same platform without its `batch`: the runner then commits each mutating call on its own
// (the per-call figures and the per-call durability tests compare against one commit per batch).
import type { Platform } from '../../src/core/types.js';

export function withoutBatch(platform: Platform): Platform {
  const { batch: _batch, ...rest } = platform;
  return rest;
}
