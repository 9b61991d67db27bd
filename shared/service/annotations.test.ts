import { describe, expect, it } from 'vitest';
import { AnnotationSyntaxError, parseAnnotations, stripAnnotations } from './annotations';

describe('parseAnnotations', () => {
  it.each([
    [
      'Similarity query. @grpc @role(USER,SUPER_ADMIN)',
      [
        { name: 'grpc', params: [] },
        { name: 'role', params: ['USER', 'SUPER_ADMIN'] },
      ],
    ],
    [
      'text before @role( USER , SUPER_ADMIN ) and after',
      [{ name: 'role', params: ['USER', 'SUPER_ADMIN'] }],
    ],
    ['@handler(streamResponse)', [{ name: 'handler', params: ['streamResponse'] }]],
    ['@path(/files/:id)', [{ name: 'path', params: ['/files/:id'] }]],
    ['@grpc()', [{ name: 'grpc', params: [] }]],
    ['@Audit()', [{ name: 'Audit', params: [] }]],
    ['@Audit( )', [{ name: 'Audit', params: [] }]],
    ['@validate(top, gt=0, lte=60)', [{ name: 'validate', params: ['top', 'gt=0', 'lte=60'] }]],
    ['(@role(USER))', [{ name: 'role', params: ['USER'] }]],
    [
      'first line\n@grpc\nthird line @x.y-z(1)',
      [
        { name: 'grpc', params: [] },
        { name: 'x.y-z', params: ['1'] },
      ],
    ],
  ])('%j', (text, expected) => {
    expect(parseAnnotations(text)).toEqual(expected);
  });

  it.each([
    'Write to admin@example.com for access.',
    'first.last+tag@example.org',
    'meet @ noon',
    'trailing @',
    'no annotations at all',
    '',
  ])('treats %j as prose', (text) => {
    expect(parseAnnotations(text)).toEqual([]);
  });

  it('finds an annotation next to an e-mail address', () => {
    expect(parseAnnotations('ask admin@example.com @role(SUPER_ADMIN)')).toEqual([
      { name: 'role', params: ['SUPER_ADMIN'] },
    ]);
  });

  it.each([
    ['@(USER)', /needs a name/],
    ['@role', /needs parentheses/],
    ['see @role USER', /needs parentheses/],
    ['@role(USER', /not closed/],
    ['@role(USER,,ADMIN)', /empty parameter/],
    ['@role(USER,)', /empty parameter/],
    ['@x(a(b))', /cannot contain parentheses/],
    ['@grpc(yes)', /takes no parameters/],
  ])('rejects %j', (text, message) => {
    expect(() => parseAnnotations(text)).toThrow(AnnotationSyntaxError);
    expect(() => parseAnnotations(text)).toThrow(message);
  });
});

describe('stripAnnotations', () => {
  it.each([
    ['Similarity query. @grpc @role(USER,SUPER_ADMIN)', 'Similarity query.'],
    ['Upload a file @role(USER) into the base.', 'Upload a file into the base.'],
    ['Line one.\n@grpc @role(USER)\nLine three.', 'Line one.\nLine three.'],
    ['Para one.\n\nPara two. @grpc', 'Para one.\n\nPara two.'],
    ['Mail admin@example.com', 'Mail admin@example.com'],
    ['@handler(streamResponse)', ''],
  ])('%j → %j', (text, expected) => {
    expect(stripAnnotations(text)).toBe(expected);
  });
});
