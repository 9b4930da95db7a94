import fc from 'fast-check';
import { propertySeed } from './seed';

// The unit project's property tests draw from one seed per file (tests/support/seed.ts); fast-check
// names it in any failure's message.
fc.configureGlobal({ seed: propertySeed() });
