import {
  MessagePath,
  MessageTemplatePath,
  type Page,
  type SendMsgBody,
  type SysMessage,
  type SysMessageTemplate,
} from '@isps/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { http, unwrap } from '../../../shared/api/index.ts';

// The message center's calls (messages and templates share one shape: list, save, delete; templates test-send).
type Params = Record<string, string | number | undefined>;

function resource<T>(paths: { list: string; add: string; edit: string; delete: string }, key: string) {
  const list = async (params: Params) => unwrap(await http.get<Page<T>>(paths.list, params));
  const save = async (input: Partial<T> & { id?: string }) => {
    const envelope = input.id ? await http.put<unknown>(paths.edit, input) : await http.post<unknown>(paths.add, input);
    unwrap(envelope);
    return envelope.message;
  };
  const remove = async (id: string) => {
    const envelope = await http.delete<unknown>(paths.delete, { id });
    unwrap(envelope);
    return envelope.message;
  };
  return { key, list, save, remove };
}

export const messages = resource<SysMessage>(MessagePath, 'sys-messages');
export const templates = resource<SysMessageTemplate>(MessageTemplatePath, 'sys-message-templates');

export function useResourceAction<A>(key: string, action: (arg: A) => Promise<string>) {
  const client = useQueryClient();
  return useMutation({ mutationFn: action, onSettled: () => client.invalidateQueries({ queryKey: [key] }) });
}

export async function sendTemplateMessage(body: SendMsgBody): Promise<string> {
  const envelope = await http.post<unknown>(MessageTemplatePath.sendMsg, body);
  unwrap(envelope);
  return envelope.message;
}
