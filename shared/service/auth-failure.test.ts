import { describe, expect, it } from 'vitest';
import { AppError } from '../errors/app-error';
import {
  AuthError,
  accessDenied,
  accessDeniedResponse,
  authFailureResponse,
  unauthorised,
  unauthorisedResponse,
} from './auth-failure';

describe('auth failures', () => {
  it.each([
    [unauthorised('token expired'), 401, 'unauthenticated', 'Unauthorised', 'token expired'],
    [
      accessDenied('role USER not in [SUPER_ADMIN]'),
      403,
      'permission_denied',
      'Access denied',
      'role USER not in [SUPER_ADMIN]',
    ],
  ])(
    '%s carries status, code, fixed text and a log-only reason',
    (error, status, code, text, reason) => {
      expect(error).toBeInstanceOf(AuthError);
      expect(error).toBeInstanceOf(AppError);
      expect(error.status).toBe(status);
      expect(error.code).toBe(code);
      expect(error.message).toBe(text);
      expect(error.reason).toBe(reason);
    },
  );

  it.each([
    [unauthorisedResponse(), 401, 'Unauthorised', 'Bearer'],
    [accessDeniedResponse(), 403, 'Access denied', null],
    [authFailureResponse(unauthorised('secret detail')), 401, 'Unauthorised', 'Bearer'],
  ])('answers in plain text with the fixed body', async (response, status, body, challenge) => {
    expect(response.status).toBe(status);
    expect(response.headers.get('Content-Type')).toBe('text/plain; charset=UTF-8');
    expect(response.headers.get('WWW-Authenticate')).toBe(challenge);
    expect(await response.text()).toBe(body);
  });
});
