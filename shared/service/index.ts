// One service declaration → routes, validation, role hook, OpenAPI, HTTP client and RPC.
export { defineService, method, routeOf, ServiceDeclarationError } from './define';
export { fileParam } from './schema-kind';
export { enumOf, enumValues, UNKNOWN } from './enum';
export {
  contentDisposition,
  fileDownload,
  fileDownloadHeaders,
  fileDownloadResponse,
  filenameFromDisposition,
  type DownloadedFile,
  type FileDownload,
  type FileDownloadSpec,
} from './file-download';
export { redirect, type Redirect, type RedirectSpec } from './redirect';
export { webResponse, type WebResponseSpec } from './web-response';
export { SSE_HEADERS, SseEvent, encodeSse, readSse, sseEvent, sseResponse, sseStream } from './sse';
export {
  ACCESS_DENIED_TEXT,
  AuthError,
  UNAUTHORISED_TEXT,
  accessDenied,
  accessDeniedResponse,
  authFailureResponse,
  unauthorised,
  unauthorisedResponse,
} from './auth-failure';
export {
  AnnotationSyntaxError,
  parseAnnotations,
  stripAnnotations,
  type Annotation,
} from './annotations';
export { AnnotationStore, methodNameOf } from './annotation-store';
export { CREDENTIALS, type Credential } from './credential';
export { httpMethodOf, routePathOf, snakeCase, type HttpMethod, type RoutePattern } from './naming';
export { ValidateTagError } from './validate-tags';
export { DEFAULT_BODY_LIMIT, type BodyLimit } from './body-limit';
export { DOCS_PATH, OPENAPI_PATH, mountService, routeNameOf, type MountOptions } from './mount';
export { mergeOpenApi, openApiDocument, type OpenApiDocument } from './openapi';
export { API_REFERENCE_CSP, renderApiReferencePage } from './api-reference-page';
export { createClient, type CallInit, type ClientOptions, type ServiceClient } from './client';
export {
  rpcClient,
  rpcEntrypoint,
  rpcFailureError,
  unwrapRpc,
  type RpcBindingOf,
  type RpcClientOf,
  type RpcEntrypointClass,
  type RpcFailure,
  type RpcMetadata,
  type RpcOptions,
  type RpcResult,
} from './rpc';
export type {
  AccessRequest,
  Authorize,
  CallContext,
  Caller,
  ClientResultOf,
  InputOf,
  MethodImpl,
  MethodSpec,
  ParamsFor,
  ResultOf,
  Route,
  Service,
  ServiceImpl,
  ServiceSpec,
  StreamItem,
  StreamYield,
} from './types';
