import { replayFamily } from './replay.ts';

// openprocurement.auctions.insider docs/source/tutorial and qualification: dgfInsider auctions at /api/2.3.
replayFamily({
  name: 'insider',
  ours: {
    rectificationPeriod: 'the insider model at HEAD shows it (generate_rectificationPeriod); the recordings predate it',
    auctionParameters: 'the insider model at HEAD has it (type insider, dutchSteps); the recordings predate it',
    author: 'interface.md: documents say who added them (auction_owner, bid_owner); the recordings predate the field',
    title_en: 'the platform legal details document at HEAD (DGF_PLATFORM_LEGAL_DETAILS) has its English title',
    title_ru: 'the platform legal details document at HEAD (DGF_PLATFORM_LEGAL_DETAILS) has its Russian title',
    dateAnswered: "Agora's: when the organizer answered a question",
    numberOfBids: 'the active bids counted when the auction is scheduled (numberOfBids of the auctions core model)',
  },
  differs: {
    eligibilityCriteria: 'the recordings predate the texts of DGF_ELIGIBILITY_CRITERIA at HEAD, which Agora answers',
    eligibilityCriteria_en: 'the recordings predate the texts of DGF_ELIGIBILITY_CRITERIA at HEAD, which Agora answers',
    eligibilityCriteria_ru: 'the recordings predate the texts of DGF_ELIGIBILITY_CRITERIA at HEAD, which Agora answers',
  },
});
