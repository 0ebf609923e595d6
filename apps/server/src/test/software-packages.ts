import { randomUUID } from 'node:crypto';
import { crc32 } from 'node:zlib';
import { SoftUpdatePath } from '@isps/contract';
import type { FastifyInstance } from 'fastify';
import { api, injectAs } from './harness.ts';

/** A ZIP archive of stored (uncompressed) entries, as an APK's packer writes them. */
export function zipOf(entries: Record<string, string>): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const [name, text] of Object.entries(entries)) {
    const data = Buffer.from(text);
    const fileName = Buffer.from(name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt32LE(crc32(data), 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(fileName.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt32LE(crc32(data), 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(fileName.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, fileName, data);
    centrals.push(central, fileName);
    offset += 30 + fileName.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(Object.keys(entries).length, 8);
  end.writeUInt16LE(Object.keys(entries).length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** A one-file ustar archive. */
export function tarOf(name: string, text: string): Buffer {
  const data = Buffer.from(text);
  const header = Buffer.alloc(512);
  header.write(name, 0);
  header.write('0000644\0', 100);
  header.write(`${data.length.toString(8).padStart(11, '0')}\0`, 124);
  header.write('ustar\u000000', 257);
  header.fill(' ', 148, 156);
  const sum = header.reduce((acc, b) => acc + b, 0);
  header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
  return Buffer.concat([header, data, Buffer.alloc(512 - (data.length % 512)), Buffer.alloc(1024)]);
}

/** An APK as the soft update screen accepts it: a ZIP with a manifest. */
export const sampleApk = zipOf({ 'AndroidManifest.xml': '<manifest package="com.isps.panel"/>', 'classes.dex': 'dex\n035' });

/** Uploads a software package to the soft update screen as its form does; answers the new package's id. */
export async function uploadSoftUpdate(app: FastifyInstance, token: string, version: string, file: Buffer = sampleApk, filename = 'panel.apk'): Promise<string> {
  const boundary = `----isps${randomUUID()}`;
  const payload = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="version"\r\n\r\n${version}\r\n`),
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`),
    file,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const answer = await injectAs<{ id: string }>(app, token, { method: 'POST', url: api(app, SoftUpdatePath.upload), payload, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } });
  if (!answer.envelope.success) throw new Error(`upload of ${filename}: ${answer.envelope.message}`);
  return answer.envelope.result.id;
}
