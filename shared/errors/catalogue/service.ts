import { errorGroup } from './entry.ts';

/** The service or a part it depends on failed; nothing the caller did. */
export const serviceErrors = errorGroup({
  module_unavailable: {
    status: 503,
    en: 'The service is unavailable right now. Try again in a moment.',
    zh: '服务暂时不可用，请稍后再试。',
  },
  model_unavailable: {
    status: 502,
    en: 'The language model is unavailable right now. Try again later.',
    zh: '语言模型暂时不可用，请稍后再试。',
  },
  database_unavailable: {
    status: 503,
    en: 'The database is unavailable right now. Try again later.',
    zh: '数据库暂时不可用，请稍后再试。',
  },
  configuration_invalid: {
    status: 503,
    en: 'The service is not configured correctly. Tell an administrator.',
    zh: '服务配置有误，请联系管理员。',
  },
  internal_error: {
    status: 500,
    detail: 'Internal server error.',
    en: 'Something went wrong in the service. Try again.',
    zh: '服务内部出错，请重试。',
  },
  rpc_protocol_error: {
    status: 502,
    en: 'The service answered in an unexpected form. Try again.',
    zh: '服务返回了意外的内容，请重试。',
  },
  invalid_response: {
    status: 502,
    en: 'The service answered in an unexpected form. Try again.',
    zh: '服务返回了意外的内容，请重试。',
  },
});
