import { replayFamily } from './replay.ts';

// openregistry.assets.basic docs/source/tutorial: basic assets at /api/0.1/assets.
replayFamily({
  name: 'basic',
  ours: {
    rectificationPeriod:
      'interface.md §2.4: every asset, basic ones too, gets a 24-hour rectification period at pending',
  },
  // The original's docs code read the asset with a `bot` key: any key of ours reads it.
  roles: { bot: 'concierge' },
});
