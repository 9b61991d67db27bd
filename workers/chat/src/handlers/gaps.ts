import type { Principal } from '#shared/auth/roles';
import type { chatService } from '#shared/contracts/chat';
import type { ServiceImpl } from '#shared/service';

type Impl = ServiceImpl<typeof chatService, ChatEnv, Principal>;

// PLACEHOLDER: being built (issue 34); replaced before it lands.
export const GetGaps: Impl['GetGaps'] = () => Promise.reject(new Error('GetGaps: not built yet'));
export const GetGapsExport: Impl['GetGapsExport'] = () =>
  Promise.reject(new Error('GetGapsExport: not built yet'));
export const PostGapsResolved: Impl['PostGapsResolved'] = () =>
  Promise.reject(new Error('PostGapsResolved: not built yet'));
