import { AccountPath, type RegisterCheckQuery } from '@isps/contract';
import { http } from '../../../shared/api/index.ts';

/** null when the value is free, else the server's message ('User name already exists!' and the like). */
export async function checkRegisterValue(query: RegisterCheckQuery): Promise<string | null> {
  const answer = await http.get<null>(AccountPath.registerCheck, { field: query.field, value: query.value }, { silent: true });
  return answer.success ? null : answer.message;
}
