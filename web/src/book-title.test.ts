import { describe, expect, it } from 'vitest';
import { bookTitle } from './book-title';

describe('a title between 书名号', () => {
  it('wraps a bare title', () => {
    expect(bookTitle('四川省省级机关会议费管理办法')).toBe('《四川省省级机关会议费管理办法》');
  });

  it('leaves a title that already comes wrapped as it is', () => {
    expect(bookTitle('《四川省省级机关会议费管理办法》')).toBe('《四川省省级机关会议费管理办法》');
    expect(bookTitle(' 《办法》 ')).toBe('《办法》');
    expect(bookTitle('《关于印发〈办法〉的通知》')).toBe('《关于印发〈办法〉的通知》');
  });

  it('writes the titles within a title it wraps with single marks', () => {
    expect(bookTitle('关于印发《会议费管理办法》的通知')).toBe(
      '《关于印发〈会议费管理办法〉的通知》',
    );
    expect(bookTitle('《条例》与《办法》')).toBe('《〈条例〉与〈办法〉》');
  });
});
