import { describe, expect, it } from 'vitest';
import { frameWatcher } from '../../../lib/local/room-server.ts';

/** A client's frame as it is on the wire: masked, the payload length in 7, 7+16 or 7+64 bits. */
function frame(size: number, opcode = 0x1, fin = true): Buffer {
  const length =
    size < 126
      ? Buffer.from([0x80 | size])
      : size < 65536
        ? Buffer.from([0x80 | 126, size >> 8, size & 0xff])
        : Buffer.concat([Buffer.from([0x80 | 127]), Buffer.from([0, 0, 0, 0]), u32(size)]);
  return Buffer.concat([
    Buffer.from([(fin ? 0x80 : 0) | opcode]),
    length,
    Buffer.from([1, 2, 3, 4]),
    Buffer.alloc(size),
  ]);
}
const u32 = (n: number) => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
};

/** Feeds `bytes` to a watcher in chunks of `chunk` bytes; how many times it found a frame too large. */
function watch(bytes: Buffer, limit: number, chunk: number): number {
  let found = 0;
  const feed = frameWatcher(limit, () => found++);
  for (let at = 0; at < bytes.length; at += chunk) feed(bytes.subarray(at, at + chunk));
  return found;
}

describe('frameWatcher (the local room socket: frames over the limit)', () => {
  const LIMIT = 32 * 1024;
  const within = Buffer.concat([
    frame(10),
    frame(125),
    frame(126),
    frame(LIMIT, 0x1, false),
    frame(LIMIT, 0x0),
    frame(0, 0x9),
  ]);

  it('lets frames up to the limit pass, however the bytes are cut', () => {
    for (const chunk of [1, 2, 3, 7, 13, 1000, within.length]) expect(watch(within, LIMIT, chunk), `${chunk}`).toBe(0);
  });

  it('finds a frame over the limit, with a 16- or a 64-bit length, once, however the bytes are cut', () => {
    for (const size of [LIMIT + 1, 100 * 1024]) {
      const bytes = Buffer.concat([within, frame(size), frame(size)]);
      for (const chunk of [1, 5, 4096, bytes.length]) expect(watch(bytes, LIMIT, chunk), `${size}/${chunk}`).toBe(1);
    }
  });
});
