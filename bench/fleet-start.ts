import type { SimDevice } from '@isps/device-sim';

/** Starts a simulated device, trying again after a connect timeout (a busy broker at a fleet's start), not after a refusal. */
export async function startWithRetries(device: SimDevice, attempts = 5): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await device.start();
    } catch (error) {
      if (attempt >= attempts || !/timeout/i.test(String(error))) throw error;
    }
  }
}
