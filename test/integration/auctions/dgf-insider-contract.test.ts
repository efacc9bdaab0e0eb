import { auctionContract } from '../../support/auction-contract.ts';
import { dgfInsider } from '../../support/auctions.ts';

// What every auction type must do, here for dgfInsider (its own rules: the other dgf-insider-*.test.ts files).
auctionContract(dgfInsider);
