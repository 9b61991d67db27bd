import type { Principal } from '#shared/auth/roles';
import type { chatService } from '#shared/contracts/chat';
import type { ServiceImpl } from '#shared/service';

type Impl = ServiceImpl<typeof chatService, ChatEnv, Principal>;

// PLACEHOLDER: being built (issue 34); replaced before it lands.
export const PutUnhelpfulResolved: Impl['PutUnhelpfulResolved'] = () =>
  Promise.reject(new Error('PutUnhelpfulResolved: not built yet'));
