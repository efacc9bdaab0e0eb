import { replayFamily } from './replay.ts';

// openprocurement.auctions.geb docs/source/tutorial: landlease auctions at /api/2.5.
replayFamily({
  name: 'landlease',
  ours: {
    author: 'interface.md: documents say who added them (auction_owner, bid_owner)',
    next_check: "Agora's: when the chronograph looks at the auction next, in its view and listing (tests next-check)",
    date: 'when the bid was registered (the auctions core Bid model has it; the GEB view left it out)',
    numberOfBids: 'the active bids counted when the auction is scheduled (numberOfBids of the auctions core model)',
    dateAnswered: "Agora's: when the organizer answered a question",
  },
});
