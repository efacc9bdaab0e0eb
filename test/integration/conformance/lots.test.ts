import { replayFamily } from './replay.ts';

// openregistry.lots.basic docs/source/tutorial: basic lots at /api/0.1/lots.
replayFamily({ name: 'lots' });
