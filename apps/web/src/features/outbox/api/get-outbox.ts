import { queryOptions, useQuery } from '@tanstack/react-query';
import type { OutboxMail } from '@gantry/contracts';
import { http } from '../../../api/http';
import { outboxKeys } from './keys';
import { session } from '../../../api/session';

/** The instance outbox: an instance admin, or anyone holding the key printed in the server log. */
export const getOutbox = (key?: string) => http.get<{ mails: OutboxMail[] }>('/ms-usermanagement/outbox', { query: { key }, auth: session.isLoggedIn() });

export const outboxQuery = (key?: string) =>
  queryOptions({
    queryKey: outboxKeys.list(key),
    queryFn: () => getOutbox(key),
    // Newest first.
    select: (d) => [...d.mails].sort((a, b) => b.createdAt.localeCompare(a.createdAt)),
    refetchInterval: 10_000,
  });

export const useOutbox = (key?: string) => useQuery(outboxQuery(key));
