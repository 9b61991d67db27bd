import { describe, expect, it } from 'vitest';
import { hasInvisible, singleScript, Username } from './username';

describe('usernames that cannot pass for someone else’s', () => {
  it.each([
    ['admin', 'admin'],
    ['ａｄｍｉｎ', 'admin'], // full-width letters fold (NFKC)
    ['  alice  ', 'alice'],
    ['王小明', '王小明'],
    ['王Wang', '王Wang'],
    ['田中さん', '田中さん'],
    ['Мария', 'Мария'],
    ['jean-luc.o_neil', 'jean-luc.o_neil'],
    ['ﬁnance', 'finance'], // compatibility ligature folds
    ['\ufeffadmin', 'admin'], // a leading byte-order mark is trimmed like whitespace
  ])('accepts %j as %j', (input, expected) => {
    expect(Username.parse(input)).toBe(expected);
  });

  it.each([
    ['a zero-width space', 'ad\u200bmin'],
    ['a zero-width joiner', 'ad\u200dmin'],
    ['a right-to-left override', 'admin\u202etxt'],
    ['a byte-order mark inside', 'ad\ufeffmin'],
    ['a Cyrillic а in admin', 'аdmin'],
    ['a Greek ο in root', 'rοot'],
    ['Cyrillic and Greek', 'Мαрия'],
    ['a tab', 'ad\tmin'],
    ['a line separator', 'ad\u2028min'],
    ['a private-use character', 'ad\ue000min'],
    ['a control character', 'ad\u0007min'],
  ])('refuses %s', (_, input) => {
    expect(Username.safeParse(input).success).toBe(false);
  });

  it('tells invisible characters and mixed scripts apart', () => {
    expect(hasInvisible('a\u200bb')).toBe(true);
    expect(hasInvisible('a b')).toBe(false);
    expect(singleScript('paypal')).toBe(true);
    expect(singleScript('pаypal')).toBe(false);
  });
});
