import type { client } from '../../support/http.ts';
import type { RoomClient } from './room-client.ts';

type Api = ReturnType<typeof client>;

/** The stage the room document says is current. */
export const stageOf = (room: any) => {
  const { document } = room;
  return document.stages[document.currentStage - document.stagesFrom];
};

/** Waits until the room is in the stage named `name` (or of type `type`), and returns that stage. */
export async function atStage(c: RoomClient, name: string): Promise<any> {
  const room = await c.roomWhere((r) => stageOf(r)?.name === name || stageOf(r)?.type === name);
  return stageOf(room);
}

/** The participation link of a bid, as its owner reads it. */
export async function linkOf(
  api: Api,
  base: string,
  auctionId: string,
  bid: { id: string; token: string; as?: string },
) {
  const res = await api.get(`${base}/${auctionId}/bids/${bid.id}`, { token: bid.token, as: bid.as ?? 'broker2' });
  return res.body.data.participationUrl as string;
}
