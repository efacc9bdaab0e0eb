import { describe, expect, it } from 'vitest';
import { anInsiderAuction, aLot } from '../support/builders.ts';
import { client } from '../support/http.ts';
import { useService } from '../support/service.ts';
import { INSIDER, kyivDayIn } from '../support/auctions.ts';

const service = useService();
const api = client(() => service.url);

describe('test-mode titles', () => {
  it('marks every title language of a test auction, those not sent too', async () => {
    const res = await api.post(INSIDER, anInsiderAuction(kyivDayIn(14), { mode: 'test', title: 'Права вимоги' }));
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      title: '[ТЕСТУВАННЯ] Права вимоги',
      title_en: '[TESTING] ',
      title_ru: '[ТЕСТИРОВАНИЕ] ',
    });
    const url = `${INSIDER}/${res.body.data.id}`;
    const token = res.body.access.token;
    // A language sent later gets its marker; a title already marked keeps it once.
    const patched = await api.patch(
      url,
      { title_en: 'Claims', title_ru: '[ТЕСТИРОВАНИЕ] Права требования' },
      { token },
    );
    expect(patched.body.data).toMatchObject({
      title: '[ТЕСТУВАННЯ] Права вимоги',
      title_en: '[TESTING] Claims',
      title_ru: '[ТЕСТИРОВАНИЕ] Права требования',
    });
    expect((await api.get(url)).body.data.title_en).toBe('[TESTING] Claims');
  });

  it('leaves the titles of an object that is not in test mode as sent', async () => {
    const res = await api.post(INSIDER, anInsiderAuction(kyivDayIn(14), { title: 'Права вимоги' }));
    expect(res.body.data.title).toBe('Права вимоги');
    expect(res.body.data).not.toHaveProperty('title_en');
    expect(res.body.data).not.toHaveProperty('title_ru');
  });

  it('marks every title language of a test lot', async () => {
    const res = await api.post('/api/0.1/lots', aLot({ mode: 'test', title: 'Лот', title_en: 'Lot' }));
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      title: '[ТЕСТУВАННЯ] Лот',
      title_en: '[TESTING] Lot',
      title_ru: '[ТЕСТИРОВАНИЕ] ',
    });
  });
});
