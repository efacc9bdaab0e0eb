import { replayFamily } from './replay.ts';

// openregistry.assets.bounce docs/source/tutorial: recorded at /api/2.5/assets, served by Agora at /api/2.4/assets.
replayFamily({ name: 'bounce', paths: [['/api/2.5/assets', '/api/2.4/assets']] });
