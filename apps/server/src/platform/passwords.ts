import { hash, verify } from '@node-rs/argon2';

export interface PasswordCost {
  memoryCost: number;
  timeCost: number;
}

/** argon2id (the library default algorithm) with the configured cost. */
export class PasswordHasher {
  private dummyHash: Promise<string> | null = null;

  constructor(private readonly cost: PasswordCost) {}

  hash(password: string): Promise<string> {
    return hash(password, { memoryCost: this.cost.memoryCost, timeCost: this.cost.timeCost, parallelism: 1 });
  }

  async verify(storedHash: string, password: string): Promise<boolean> {
    try {
      return await verify(storedHash, password);
    } catch {
      return false;
    }
  }

  /** Spends the same work as a real check, so unknown user names cannot be told apart by timing. */
  async verifyNobody(password: string): Promise<false> {
    this.dummyHash ??= this.hash('isps-console-no-such-user');
    await this.verify(await this.dummyHash, password);
    return false;
  }
}
