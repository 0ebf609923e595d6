import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

declare module 'fastify' {
  interface FastifyInstance {
    /** encrypts stored secrets (data-source passwords) with the key from DATA_DIR or DATA_SOURCE_KEY */
    secretBox: SecretBox;
  }
}

const VERSION = 'v1';

/** AES-256-GCM: `v1:<iv>:<tag>:<ciphertext>` in base64url; tampering makes decryption fail. */
export class SecretBox {
  private readonly key: Buffer;

  constructor(secret: string) {
    this.key = createHash('sha256').update(secret).digest();
  }

  encrypt(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return [VERSION, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), data.toString('base64url')].join(':');
  }

  decrypt(sealed: string): string {
    const [version, iv, tag, data] = sealed.split(':');
    if (version !== VERSION || !iv || !tag || data === undefined) throw new Error('not a sealed secret');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
  }
}
