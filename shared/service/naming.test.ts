import { describe, expect, it } from 'vitest';
import { httpMethodOf, routePathOf, snakeCase, splitVerb } from './naming';

describe('httpMethodOf', () => {
  it.each([
    ['GetQuery', 'GET'],
    ['ListFiles', 'GET'],
    ['PostLogin', 'POST'],
    ['CreateUser', 'POST'],
    ['PutFile', 'PUT'],
    ['UpdateUser', 'PUT'],
    ['DeleteFile', 'DELETE'],
    ['Upload', 'POST'],
    ['Chat', 'POST'],
    ['Get', 'GET'],
    ['Delete', 'DELETE'],
    ['Get2FA', 'GET'],
    // a verb followed by a lowercase letter is part of a longer word, not a verb
    ['Getaway', 'POST'],
    ['Listen', 'POST'],
    ['Posting', 'POST'],
    ['Updated', 'POST'],
  ])('%s → %s', (name, method) => {
    expect(httpMethodOf(name)).toBe(method);
  });
});

describe('routePathOf, pattern 0 (snake_case)', () => {
  it.each([
    ['GetXyByZ', '/xy_by_z'],
    ['PostLogin', '/login'],
    ['GetQuery', '/query'],
    ['Upload', '/upload'],
    ['Chat', '/chat'],
    ['GetUserByID', '/user_by_id'],
    ['GetV2Files', '/v2_files'],
    ['ListHTTPLogs', '/http_logs'],
    ['GetUserIDs', '/user_ids'],
    ['ListURLsByOwner', '/urls_by_owner'],
    ['CreateBase64Encode', '/base64_encode'],
    ['Get2FACodes', '/2_fa_codes'],
    ['Get3dModels', '/3d_models'],
    ['GetHTTPServer', '/http_server'],
    ['GetABCDef', '/abc_def'],
    ['UpdateIDsort', '/i_dsort'],
    ['Getaway', '/getaway'],
    ['Listen', '/listen'],
    ['Get', '/'],
    ['Post', '/'],
    ['DeleteX', '/x'],
  ])('%s → %s', (name, path) => {
    expect(routePathOf(name)).toBe(path);
  });
});

describe('routePathOf, pattern 1 (lowercase only)', () => {
  it.each([
    ['GetUserByID', '/userbyid'],
    ['ListHTTPLogs', '/httplogs'],
    ['PostLogin', '/login'],
    ['Upload', '/upload'],
    ['GetV2Files', '/v2files'],
    ['Get', '/'],
  ])('%s → %s', (name, path) => {
    expect(routePathOf(name, 1)).toBe(path);
  });
});

describe('helpers', () => {
  it('splits the verb off only at a word boundary', () => {
    expect(splitVerb('GetUser')).toEqual({ verb: 'Get', rest: 'User' });
    expect(splitVerb('Getaway')).toEqual({ verb: undefined, rest: 'Getaway' });
  });

  it('snake-cases a lowercase-initial name too', () => {
    expect(snakeCase('chatStream')).toBe('chat_stream');
  });
});
