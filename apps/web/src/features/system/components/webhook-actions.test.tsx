import { webhookEntity } from '@isps/contract';
import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { Form, Input } from 'antd';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useSession } from '../../../shared/session/index.ts';
import { renderInConsole } from '../../../test-providers.tsx';
import { GenerateSecretButton, webhookExtension } from './webhook-actions.tsx';

let calls: { url: string; method: string; body: unknown }[];
beforeEach(() => {
  calls = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      calls.push({ url, method: init?.method ?? 'GET', body: init?.body ? JSON.parse(String(init.body)) : null });
      if (String(url).includes('/sys/webhook/deliveries')) {
        const records = [
          { id: 'd2', seq: 2, eventKind: 'opening', status: 'failed', attempts: 9, nextAttemptTime: null, lastStatus: null, lastError: 'connect ECONNREFUSED 127.0.0.1:9', deliveredTime: null, createTime: '2026-12-01 08:00:00' },
          { id: 'd1', seq: 1, eventKind: 'alarm', status: 'delivered', attempts: 1, nextAttemptTime: null, lastStatus: 200, lastError: null, deliveredTime: '2026-12-01 07:59:00', createTime: '2026-12-01 07:59:00' },
        ];
        return Response.json({ success: true, code: 200, message: 'ok', result: { records, total: 2, size: 10, current: 1, pages: 1 }, timestamp: 1 });
      }
      return Response.json({ success: true, code: 200, message: '已加入重新发送队列', result: null, timestamp: 1 });
    }),
  );
});
afterEach(() => {
  vi.unstubAllGlobals();
  useSession.setState({ auth: [], allAuth: [] });
});

function SecretForm({ onValues }: { onValues: (values: Record<string, unknown>) => void }) {
  const [form] = Form.useForm();
  return (
    <Form form={form} onValuesChange={(_, all) => onValues(all)}>
      <Form.Item name="secret">
        <Input.Password aria-label="secret" />
      </Form.Item>
      <GenerateSecretButton name="secret" form={form} />
      <button type="button" onClick={() => onValues(form.getFieldsValue())}>
        read
      </button>
    </Form>
  );
}

describe('the webhook form and deliveries', () => {
  it('fills the secret field with a generated secret and shows it once to be copied', async () => {
    let values: Record<string, unknown> = {};
    renderInConsole(<SecretForm onValues={(v) => (values = v)} />);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: '生成' }));
    });
    fireEvent.click(screen.getByRole('button', { name: 'read' }));
    const secret = String(values.secret);
    expect(secret).toMatch(/^whsec_[0-9a-f]{64}$/);
    await screen.findAllByText('请立即复制此密钥：之后不会再显示。');
    expect(document.querySelectorAll('.ant-modal-confirm').length).toBe(1);
    expect(screen.getAllByText(secret).length).toBeGreaterThan(0);
  });

  it('lists a webhook’s deliveries with their errors and sends a failed one again', async () => {
    useSession.setState({ auth: [{ action: 'system:webhook:resend', type: '1', describe: 'resend' }], allAuth: [] });
    const RowActions = webhookExtension.RowActions!;
    renderInConsole(<RowActions entity={webhookEntity} row={{ id: 'w1', name: 'Door log' }} refresh={vi.fn()} />);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: '投递记录' }));
    });
    expect(await screen.findByText('connect ECONNREFUSED 127.0.0.1:9')).toBeTruthy();
    expect(screen.getByText('失败')).toBeTruthy();
    expect(calls[0]?.url).toContain('/sys/webhook/deliveries');
    expect(calls[0]?.url).toContain('id=w1');
    const resend = screen.getAllByRole('button', { name: '重新发送' });
    await act(async () => {
      fireEvent.click(resend[0]!);
    });
    await waitFor(() => expect(calls.some((c) => c.url.includes('/sys/webhook/resend') && (c.body as { id: string }).id === 'd2')).toBe(true));
  });
});
