import { errorGroup } from './entry.ts';

/** A request the service could not take as sent, whatever the route. */
export const requestErrors = errorGroup({
  bad_request: {
    status: 400,
    en: 'The request was not understood.',
    zh: '服务无法理解该请求。',
  },
  validation_failed: {
    status: 400,
    detail: 'The request is not valid.',
    en: 'Some of what was entered is not valid.',
    zh: '输入的部分内容无效。',
  },
  malformed_json: {
    status: 400,
    detail: 'The request body is not valid JSON.',
    en: 'The request was not understood.',
    zh: '服务无法理解该请求。',
  },
  malformed_body: {
    status: 400,
    detail: 'The request body is not valid.',
    en: 'The request was not understood.',
    zh: '服务无法理解该请求。',
  },
  unsupported_media_type: {
    status: 415,
    en: 'The request was sent in a form the service does not accept.',
    zh: '请求的格式不被服务接受。',
  },
  body_too_large: {
    status: 413,
    overLimitBody: true,
    en: 'What was sent is too large.',
    zh: '发送的内容过大。',
  },
  not_found: {
    status: 404,
    en: 'It no longer exists.',
    zh: '该项目已不存在。',
  },
  /** The client closed the connection before the answer (nginx's 499): logged, never seen. */
  client_gone: {
    status: 499 as 400,
    en: 'The client went away.',
    zh: '客户端已断开连接。',
  },
});
