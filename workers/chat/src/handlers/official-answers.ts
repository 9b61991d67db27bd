import type { Principal } from '#shared/auth/roles';
import type { chatService } from '#shared/contracts/chat';
import type { ServiceImpl } from '#shared/service';

type Impl = ServiceImpl<typeof chatService, ChatEnv, Principal>;

// PLACEHOLDER: being built (issue 34); replaced before it lands.
export const GetAnswerSettings: Impl['GetAnswerSettings'] = () =>
  Promise.reject(new Error('GetAnswerSettings: not built yet'));
export const PutAnswerSettings: Impl['PutAnswerSettings'] = () =>
  Promise.reject(new Error('PutAnswerSettings: not built yet'));
export const GetOfficialAnswers: Impl['GetOfficialAnswers'] = () =>
  Promise.reject(new Error('GetOfficialAnswers: not built yet'));
export const PostOfficialAnswer: Impl['PostOfficialAnswer'] = () =>
  Promise.reject(new Error('PostOfficialAnswer: not built yet'));
export const DeleteOfficialAnswer: Impl['DeleteOfficialAnswer'] = () =>
  Promise.reject(new Error('DeleteOfficialAnswer: not built yet'));
