import { INTERFACE_TEST_WAIT_MS, StoragePath, type Envelope, type InterfaceTestBody, type InterfaceTestResult } from '@isps/contract';
import { useMutation } from '@tanstack/react-query';
import { http } from '../../../shared/api/index.ts';

/** The server waits up to INTERFACE_TEST_WAIT_MS for the device; the call waits that and a margin for the way back. */
export const INTERFACE_TEST_CALL_TIMEOUT_MS = INTERFACE_TEST_WAIT_MS + 5_000;

/** POST /cabinet/interfaceTest/send: one command to a cabinet device, answered with the device's reply or a timeout. */
export function sendInterfaceTest(body: InterfaceTestBody): Promise<Envelope<InterfaceTestResult | null>> {
  return http.post<InterfaceTestResult | null>(StoragePath.interfaceTest, body, { timeout: INTERFACE_TEST_CALL_TIMEOUT_MS });
}

export function useSendInterfaceTest() {
  return useMutation({ mutationFn: sendInterfaceTest });
}
