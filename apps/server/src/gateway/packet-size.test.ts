import { describe, expect, it } from 'vitest';
import { PacketSizes } from './packet-size.ts';

/** An MQTT packet: type byte, remaining length (1–4 bytes), body. */
function packet(type: number, bodyLength: number): Buffer {
  const length: number[] = [];
  let left = bodyLength;
  do {
    let byte = left % 128;
    left = Math.floor(left / 128);
    if (left > 0) byte |= 0x80;
    length.push(byte);
  } while (left > 0);
  return Buffer.concat([Buffer.from([type, ...length]), Buffer.alloc(bodyLength, 0x61)]);
}

describe('packet sizes of a connection', () => {
  it('follows packets across and within chunks, and accepts those within the limit', () => {
    const stream = Buffer.concat([packet(0x10, 100), packet(0x30, 0), packet(0x30, 3000), packet(0xc0, 0), packet(0x32, 200)]);
    const whole = new PacketSizes();
    expect(whole.accepts(stream, 3004)).toBe(true);
    const byByte = new PacketSizes();
    for (const byte of stream) expect(byByte.accepts(Buffer.from([byte]), 3004)).toBe(true);
    // the next packet is read from a fresh type byte: one over the limit is still seen
    expect(byByte.accepts(packet(0x30, 3002), 3004)).toBe(false);
  });

  it('refuses a packet over the limit from its length bytes alone, before its body comes', () => {
    // type byte, 3 length bytes, body: 1 + 3 + 16384 bytes
    expect(new PacketSizes().accepts(packet(0x30, 16_384), 16_388)).toBe(true);
    expect(new PacketSizes().accepts(packet(0x30, 16_384), 16_387)).toBe(false);
    // a CONNECT declaring 200 MB: its first two length bytes already say more than 4 kB
    const huge = packet(0x10, 200 * 1024 * 1024).subarray(0, 3);
    expect(new PacketSizes().accepts(huge, 4096)).toBe(false);
    // a length of five bytes is malformed
    expect(new PacketSizes().accepts(Buffer.from([0x30, 0x80, 0x80, 0x80, 0x80, 0x01]), Number.POSITIVE_INFINITY)).toBe(false);
  });

  it('judges each packet by the limit of the moment its length is read (before and after sign-in)', () => {
    const sizes = new PacketSizes();
    expect(sizes.accepts(packet(0x10, 60), 4096)).toBe(true);
    expect(sizes.accepts(packet(0x30, 100_000), 256 * 1024)).toBe(true);
    expect(sizes.accepts(packet(0x30, 100_000), 4096)).toBe(false);
  });
});
