import { describe, expect, it } from 'vitest';
import { totalLength } from './pdf-engine';

describe('totalLength', () => {
  it('reads the whole length a range answer tells', () => {
    expect(totalLength('bytes 0-65535/1597360')).toBe(1597360);
  });

  it('tells nothing when the length is unknown or the header is not a range', () => {
    expect(totalLength('bytes 0-65535/*')).toBeUndefined();
    expect(totalLength(null)).toBeUndefined();
    expect(totalLength('items 0-1/2')).toBeUndefined();
  });
});
