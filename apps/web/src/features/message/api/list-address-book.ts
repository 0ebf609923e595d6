import type { Page } from '@isps/contract';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { http, unwrap } from '../../../shared/api/index.ts';

/** A user as the address book lists it: the recipients picker of an announcement. */
export interface DirectoryUser {
  id: string;
  realname: string | null;
  username: string | null;
}

const ADDRESS_BOOK_LIST = '/sys/addressBook/list';

export async function listAddressBook(): Promise<DirectoryUser[]> {
  const page = unwrap(await http.get<Page<DirectoryUser>>(ADDRESS_BOOK_LIST, { pageNo: 1, pageSize: 1000 }));
  return page.records;
}

export const addressBookQuery = () => queryOptions({ queryKey: ['address-book', 'all'], queryFn: listAddressBook, staleTime: 60_000 });

export function useAddressBook(enabled: boolean) {
  return useQuery({ ...addressBookQuery(), enabled });
}
