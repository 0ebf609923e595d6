import { ApiPath, type Envelope } from '@isps/contract';
import { useMutation } from '@tanstack/react-query';
import { http, unwrap } from '../../../shared/api/index.ts';

export interface DataSourceSettings {
  id?: string;
  dbType: string;
  dbUrl: string;
  dbName?: string | null;
  dbUsername?: string | null;
  dbPassword?: string | null;
}

/** Tries to connect; a saved source without a password in the form is tested with its stored one. */
export async function testDataSourceConnection(settings: DataSourceSettings): Promise<Envelope<null>> {
  const envelope = await http.post<null>(ApiPath.dataSourceTest, settings, { timeout: 30_000 });
  unwrap(envelope);
  return envelope;
}

export function useTestDataSourceConnection() {
  return useMutation({ mutationFn: testDataSourceConnection });
}
