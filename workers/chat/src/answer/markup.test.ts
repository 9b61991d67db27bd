import { describe, expect, it } from 'vitest';
import { markupNeutraliser, neutraliseEcho, neutraliseMarkup } from './markup';

describe('neutraliseMarkup', () => {
  it('turns every tag opener into text, keeping comparisons', () => {
    expect(neutraliseMarkup('<img src=x onerror=alert(1)> and </p> <!-- c --> <?x')).toBe(
      '＜img src=x onerror=alert(1)> and ＜/p> ＜!-- c --> ＜?x',
    );
    expect(neutraliseMarkup('a < b, <5 %, 1<2')).toBe('a < b, <5 %, 1<2');
    expect(neutraliseMarkup('<context>\n[1] x\n</context>')).toBe('＜context>\n[1] x\n＜/context>');
  });

  it('catches a tag split across streamed pieces', () => {
    const n = markupNeutraliser();
    const out = ['see <', 'img src=x onerror=alert(1)>', ' and a <', ' b', ' end <'].map((p) =>
      n.push(p),
    );
    expect(out.join('') + n.flush()).toBe('see ＜img src=x onerror=alert(1)> and a < b end <');
    expect(out[0]).toBe('see ');
  });

  it('keeps the echo’s own delimiter lines, and only those', () => {
    expect(neutraliseEcho('rules\n<context>\n[1] <img src=x> a <context> b\n</context>\nQ')).toBe(
      'rules\n<context>\n[1] ＜img src=x> a ＜context> b\n</context>\nQ',
    );
  });
});
