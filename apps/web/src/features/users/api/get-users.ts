import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { ManagedUser, UserListQuery } from '@app/contract';
import type { ListResult } from '@/components/data-table';
import { api } from '@/lib/api-client';

export const usersKeys = {
  all: ['users'] as const,
  list: (query: Partial<UserListQuery>) => ['users', 'list', query] as const,
};

/** GET /users: platform users (admin, Group HR) and merchant users, paged. */
export async function getUsers(query: Partial<UserListQuery>): Promise<ListResult<ManagedUser>> {
  const response = await api.get('/api/v1/users', { params: { query } });
  return response.data;
}

export const usersQueryOptions = (query: Partial<UserListQuery>) =>
  queryOptions({
    queryKey: usersKeys.list(query),
    queryFn: () => getUsers(query),
    placeholderData: keepPreviousData,
    // The table shows the failure itself (display rule), with a retry.
    meta: { silentError: true },
  });

export const useUsers = (query: Partial<UserListQuery>) => useQuery(usersQueryOptions(query));
