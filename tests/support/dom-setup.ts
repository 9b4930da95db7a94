import 'fake-indexeddb/auto';
import { configure } from '@testing-library/react';

// findBy… and waitFor wait on what the screen shows; their 1 s default was a loaded machine's
// ordinary rendering time, not a hang.
configure({ asyncUtilTimeout: 10_000 });
