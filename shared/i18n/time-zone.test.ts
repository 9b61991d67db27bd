import { describe, expect, it } from 'vitest';
import { isTimeZone } from './time-zone';

describe('a time zone a request names', () => {
  it('is one the runtime knows: an IANA name or UTC', () => {
    expect(isTimeZone('Asia/Shanghai')).toBe(true);
    expect(isTimeZone('America/New_York')).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('Mars/Olympus')).toBe(false);
    expect(isTimeZone('')).toBe(false);
  });
});
