import { auctionContract } from '../../support/auction-contract.ts';
import { landlease } from '../../support/auctions.ts';

// What every auction type must do, here for landlease (its own rules: the other landlease-*.test.ts files).
auctionContract(landlease);
