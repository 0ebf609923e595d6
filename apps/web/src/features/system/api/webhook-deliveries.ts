import { WebhookPath, type Envelope, type Page, type WebhookDeliveryRow } from '@isps/contract';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { http, unwrap } from '../../../shared/api/index.ts';

/** A page of a webhook's deliveries, newest first. */
export async function getWebhookDeliveries(webhookId: string, pageNo: number, pageSize: number): Promise<Page<WebhookDeliveryRow>> {
  return unwrap(await http.get<Page<WebhookDeliveryRow>>(WebhookPath.deliveries, { id: webhookId, pageNo, pageSize }));
}

export const webhookDeliveriesQuery = (webhookId: string, pageNo: number, pageSize: number) =>
  queryOptions({ queryKey: ['webhook', 'deliveries', webhookId, pageNo, pageSize], queryFn: () => getWebhookDeliveries(webhookId, pageNo, pageSize), placeholderData: keepPreviousData });

export function useWebhookDeliveries(webhookId: string, pageNo: number, pageSize: number) {
  return useQuery(webhookDeliveriesQuery(webhookId, pageNo, pageSize));
}

/** "Send again": the delivery is queued anew, in its place. */
export async function resendWebhookDelivery(deliveryId: string): Promise<Envelope<null>> {
  const envelope = await http.post<null>(WebhookPath.resend, { id: deliveryId });
  unwrap(envelope);
  return envelope;
}

export function useResendWebhookDelivery() {
  const client = useQueryClient();
  return useMutation({ mutationFn: resendWebhookDelivery, onSuccess: () => void client.invalidateQueries({ queryKey: ['webhook', 'deliveries'] }) });
}
