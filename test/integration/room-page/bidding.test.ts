import { describe, expect, it } from 'vitest';
import { activeBid, AUCTIONS, rectifyingAuction } from '../../support/auctions.ts';
import { RoomClient } from '../room/room-client.ts';
import { linkOf } from '../room/room-helpers.ts';
import { atStage, answerContains, enterAsBidder, typeAmount, useRoomBrowser } from './browser.ts';

/**
 * Bidding on the room page as real bidders do, in Chromium: amounts typed the way people write them (a Ukrainian
 * decimal comma, spaces between thousands), shown back before they are sent, and bounded by the room itself.
 */
const { service, api, clock, pages, browser, connect } = useRoomBrowser();

/** Spaces of any kind as one plain space (Intl writes no-break spaces between thousands). */
const plainSpaces = (text: string | null) => (text ?? '').replace(/\s+/g, ' ');

/**
 * A landlease auction (value 100 000, step 1 000) with two active bidders, its room planned `lead` ms before its
 * start, accelerated `n` times: its id, view and the bidders' participation links.
 */
async function landleaseRoom(n: number, lead = 15_000) {
  const a = await rectifyingAuction(api, { procurementMethodDetails: `quick, accelerator=${n}` });
  await clock.passTo(a.auction.rectificationPeriod.endDate);
  await service.bot('chronograph');
  const b1 = { ...(await activeBid(api, a.id, 1, 'broker2')), as: 'broker2' };
  const b2 = { ...(await activeBid(api, a.id, 2, 'broker')), as: 'broker' };
  await clock.passTo(a.auction.tenderPeriod.endDate);
  await service.bot('chronograph');
  await clock.passTo(a.auction.enquiryPeriod.endDate);
  await service.bot('chronograph');
  const auction = (await api.get(`${AUCTIONS}/${a.id}`)).body.data;
  await clock.passTo(new Date(Date.parse(auction.auctionPeriod.startDate) - lead).toISOString());
  await service.bot('room');
  const links = [await linkOf(api, AUCTIONS, a.id, b1), await linkOf(api, AUCTIONS, a.id, b2)];
  return { id: a.id, auction, links };
}

describe('bidding on the room page', { timeout: 180_000 }, () => {
  it('in a uk-UA page, "102000,00" bids 102 000,00 once shown back; ambiguous amounts are refused; far ones asked twice', async () => {
    // Accelerated 10 times: a round lasts 18 s.
    const { id, links } = await landleaseRoom(10);
    const bidder = await enterAsBidder(browser(), service.url, links[0], { locale: 'uk-UA' });
    pages.push(bidder);
    const { page } = bidder;
    await atStage(page, 'round_1');

    // Read two ways ("102 000" or 102 with three decimals?): refused by the page, nothing shown back, nothing sent.
    expect(await typeAmount(page, '102,000')).toBe(false);
    expect(await page.textContent('#bid-answer')).toContain('можна прочитати двояко');
    expect(await typeAmount(page, '102000,001')).toBe(false);
    expect(await page.textContent('#bid-answer')).toContain('Не більше двох знаків');
    expect(await typeAmount(page, '102 000 грн')).toBe(false);

    // More than twice the least acceptable amount (101 000): shown back, then asked a second time; cancelled.
    expect(await typeAmount(page, '1 020 000')).toBe(true);
    expect(plainSpaces(await page.textContent('#confirm-text'))).toContain('1 020 000,00 грн');
    await page.click('#confirm-yes');
    expect(plainSpaces(await page.textContent('#confirm-text'))).toContain(
      'у 10 раз більше за найменшу прийнятну суму (101 000,00 грн)',
    );
    await page.click('#confirm-no');
    expect(await page.isHidden('#confirm')).toBe(true);

    // The Ukrainian decimal comma: 102 000,00 is shown back as such, and that is the bid the room takes.
    expect(await typeAmount(page, '102000,00')).toBe(true);
    expect(plainSpaces(await page.textContent('#confirm-text'))).toContain('Ставка 102 000,00 грн');
    await page.click('#confirm-yes');
    expect(plainSpaces(await answerContains(page, 'Ставку прийнято'))).toContain('102 000,00 грн');
    expect(plainSpaces(await page.textContent('#results tbody tr:first-child'))).toContain('102 000,00 грн');

    // The room bounds amounts itself: 100 times the starting value, whatever a client sends.
    const forged = await connect(RoomClient.url(service.url, id, links[1]));
    expect(await forged.ask({ action: 'bid', amount: 1e15 }, 'bid')).toMatchObject({
      outcome: 'refused',
      code: 'too-high',
      message: "Bid value can't be more than 10000000.00 (100 times the starting value)",
    });
  });
});
