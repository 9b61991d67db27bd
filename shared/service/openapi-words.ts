import type { Language } from '../i18n/language';
import { errorDetail, errorText, type ErrorCode } from '../errors/catalogue';
import type { Credential } from './credential';

const LOGIN_REQUIRED = 'login_required' satisfies ErrorCode;
const API_KEY_REQUIRED = 'api_key_required' satisfies ErrorCode;

/**
 * The sentences the OpenAPI document writes itself (openapi.ts), in the document's language:
 * the answers every route shares, the roles and credential sentences, a declared code's words.
 * The routes' own doc texts stay as written; their summaries come from summaries-zh.ts.
 */
export interface OpenApiWords {
  roles: (roles: readonly string[]) => string;
  credential: Record<Credential, string>;
  /** A declared error code's line: the wire's detail in English, the catalogue's words else. */
  error: (code: ErrorCode) => string;
  problem: string;
  badRequest: string;
  unauthorised: string;
  accessDenied: string;
  credentialRefused: string;
  done: string;
  result: string;
  resultAsData: string;
  noResult: string;
  /** A stream's answer: its last line when it completes, and whether it may answer JSON. */
  stream: (end: string | undefined, json: boolean) => string;
  redirect: string;
  file: string;
  problemOf: (code: ErrorCode, withMembers: boolean) => string;
  /** The Problem schema's description, and its OpenAI-shaped `error` member's. */
  problemSchema: string;
  openAiError: string;
  /** The bearer security scheme's description. */
  bearer: string;
}

export const OPENAPI_WORDS: Record<Language, OpenApiWords> = {
  en: {
    roles: (roles) => `Roles: ${roles.join(', ')}.`,
    credential: {
      login: `Credential: a login token (\`POST /moduleauth/login\`) only; an API key is refused with 403 \`${LOGIN_REQUIRED}\`.`,
      key: `Credential: an API key (\`Authorization: Bearer kbc_…\`) only; a login token is refused with 403 \`${API_KEY_REQUIRED}\`.`,
    },
    error: (code) => `\`${code}\`: ${errorDetail(code)}`,
    problem: 'The request failed.',
    badRequest:
      'A parameter is missing or invalid (`validation_failed`, listing each field), or the body is malformed.',
    unauthorised: 'No valid credential.',
    accessDenied: "The caller's role is not allowed.",
    credentialRefused: `The route does not take this kind of credential (\`${LOGIN_REQUIRED}\`, \`${API_KEY_REQUIRED}\`), or the caller's role is not allowed (plain text).`,
    done: 'Done; no content.',
    result: 'The result.',
    resultAsData: 'The result, as `data`.',
    noResult: 'No result.',
    stream: (end, json) =>
      'Server-Sent Events. Each plain message is `data: <JSON of the schema>`; named events ' +
      '(`event: <name>`) carry the JSON listed in `x-sse-events`. A failure ends the stream ' +
      'with an `error` event.' +
      (end !== undefined ? ` A stream that completed ends with \`data: ${end}\`.` : '') +
      (json ? ' When the request asks for no stream: the result as JSON.' : ''),
    redirect: 'Sends the browser on to the address in Location.',
    file: 'The file, named in Content-Disposition.',
    problemOf: (code, withMembers) =>
      `The problem of \`${code}\`${withMembers ? ', with its own members' : ''}.`,
    problemSchema:
      'RFC 9457 problem details, with a stable `code` and the request id. Some codes add members of their own (a 429 `quota_exceeded` says when the limits reset): the routes that answer them describe them.',
    openAiError:
      "On routes of OpenAI's protocol: the same failure as OpenAI's error object, which its SDKs read.",
    bearer:
      'A login token from `POST /moduleauth/login`, or an API key (`kbc_…`, from `POST /moduleauth/api_key`; in this header only). Links and EventSource clients may send a login token as the form value `t` instead. A route that takes only one of the two says so.',
  },
  zh: {
    roles: (roles) => `角色：${roles.join('、')}。`,
    credential: {
      login: `凭证：仅限登录令牌（\`POST /moduleauth/login\`）；API 密钥会被拒绝（403 \`${LOGIN_REQUIRED}\`）。`,
      key: `凭证：仅限 API 密钥（\`Authorization: Bearer kbc_…\`）；登录令牌会被拒绝（403 \`${API_KEY_REQUIRED}\`）。`,
    },
    error: (code) => `\`${code}\`：${errorText(code, 'zh')}`,
    problem: '请求失败。',
    badRequest: '缺少参数或参数无效（`validation_failed`，逐项列出字段），或请求体格式错误。',
    unauthorised: '没有有效的凭证。',
    accessDenied: '调用者的角色无权访问。',
    credentialRefused: `此路由不接受这类凭证（\`${LOGIN_REQUIRED}\`、\`${API_KEY_REQUIRED}\`），或调用者的角色无权访问（纯文本）。`,
    done: '完成，无内容。',
    result: '结果。',
    resultAsData: '结果，位于 `data` 中。',
    noResult: '没有结果。',
    stream: (end, json) =>
      'Server-Sent Events。每条普通消息为 `data: <按该模式的 JSON>`；具名事件' +
      '（`event: <名称>`）携带 `x-sse-events` 中列出的 JSON。失败时以 `error` 事件结束流。' +
      (end !== undefined ? `正常结束的流以 \`data: ${end}\` 收尾。` : '') +
      (json ? '请求不要求流式时：以 JSON 返回结果。' : ''),
    redirect: '将浏览器转到 Location 中的地址。',
    file: '文件本身，文件名见 Content-Disposition。',
    problemOf: (code, withMembers) =>
      `\`${code}\` 的问题详情${withMembers ? '，带有其自身的字段' : ''}。`,
    problemSchema:
      'RFC 9457 问题详情，带有稳定的 `code` 和请求 ID。有些代码另有自己的字段（429 `quota_exceeded` 会说明限额何时重置）：返回它们的路由会说明。',
    openAiError: 'OpenAI 协议的路由上：同一失败的 OpenAI 错误对象，供其 SDK 读取。',
    bearer:
      '来自 `POST /moduleauth/login` 的登录令牌，或 API 密钥（`kbc_…`，来自 `POST /moduleauth/api_key`；只能放在此请求头中）。链接和 EventSource 客户端可以改用表单值 `t` 发送登录令牌。只接受其中一种的路由会说明。',
  },
};
