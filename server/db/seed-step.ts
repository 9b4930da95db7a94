import type { Deps } from '../deps';

/** One seeding step; each must be safe to run on every start. */
export type SeedStep = (deps: Deps) => Promise<void>;
