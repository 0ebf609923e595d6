/**
 * Follows the MQTT packets of one connection's byte stream by their fixed headers (a type byte, a remaining length
 * of one to four bytes, then that many bytes) and says when a packet is larger than allowed. The broker reads each
 * chunk through it before its parser does, so a packet that declares 200 MB is refused as soon as its length bytes
 * come, before any of its body is held: mqtt-packet's parser keeps a packet whole until it has all of it.
 */
export class PacketSizes {
  private stage: 'type' | 'length' | 'body' = 'type';
  private length = 0;
  private lengthBytes = 0;
  private left = 0;

  /** false once a packet of the stream (type byte and length bytes included) is larger than `limit` bytes, or malformed */
  accepts(chunk: Buffer, limit: number): boolean {
    let at = 0;
    while (at < chunk.length) {
      if (this.stage === 'body') {
        const taken = Math.min(this.left, chunk.length - at);
        this.left -= taken;
        at += taken;
        if (this.left === 0) this.stage = 'type';
      } else if (this.stage === 'type') {
        at += 1;
        this.stage = 'length';
        this.length = 0;
        this.lengthBytes = 0;
      } else {
        const byte = chunk[at]!;
        at += 1;
        this.length += (byte & 0x7f) * 128 ** this.lengthBytes;
        this.lengthBytes += 1;
        if (byte & 0x80) {
          // more length bytes follow, so the length takes at least the next one's place (in its shortest form)
          if (this.lengthBytes === 4 || 2 + this.lengthBytes + this.length + 128 ** this.lengthBytes > limit) return false;
          continue;
        }
        if (1 + this.lengthBytes + this.length > limit) return false;
        this.left = this.length;
        this.stage = this.left === 0 ? 'type' : 'body';
      }
    }
    return true;
  }
}
