import { describe, expect, it } from 'vitest';
import type { AppError } from '#shared/errors/app-error';
import { auditCsvHead, auditCsvLines } from './csv';
import { auditFilter } from './filters';

const refusal = (query: Parameters<typeof auditFilter>[0]) => {
  try {
    auditFilter(query);
  } catch (err) {
    return err as AppError;
  }
  throw new Error('not refused');
};

describe('the audit filters', () => {
  it('take an action or a module prefix, and trim what was typed', () => {
    expect(auditFilter({ action: 'knowledge.upload', actor: '  ada ' })).toEqual({
      action: { exact: 'knowledge.upload' },
      actor: 'ada',
    });
    expect(auditFilter({ action: 'auth.', object: '' })).toEqual({ action: { prefix: 'auth.' } });
  });

  it('read dates as UTC days, `to` a date including its whole day, times as given', () => {
    expect(auditFilter({ from: '2026-11-01', to: '2026-11-01' })).toEqual({
      from: new Date('2026-11-01T00:00:00Z'),
      to: new Date('2026-11-02T00:00:00Z'),
    });
    expect(auditFilter({ from: '2026-11-01T08:00:00+08:00', to: '2026-11-01T12:30' })).toEqual({
      from: new Date('2026-11-01T00:00:00Z'),
      to: new Date('2026-11-01T12:30:00Z'),
    });
  });

  it('refuse a date that is not one, and a range that ends before it starts, naming the field', () => {
    for (const from of ['yesterday', '2026-02-30', '2026-13-01', '1e9', "'; drop table"]) {
      const err = refusal({ from });
      expect(err.code).toBe('validation_failed');
      expect(err.errors?.map((e) => e.field)).toEqual(['from']);
    }
    // Years the database has no timestamp for (year 0; past 9999, where a day added to `to`
    // would land): refused as the field's mistake, never a 500.
    for (const query of [
      { from: '0000-01-01' },
      { to: '0000-12-31' },
      { from: '0001-01-01T00:30:00+01:00' },
      { to: '+010000-01-01T00:00:00Z' },
    ]) {
      const err = refusal(query);
      expect(err.code).toBe('validation_failed');
      expect(err.errors?.map((e) => e.field)).toEqual(Object.keys(query));
    }
    expect(auditFilter({ from: '0001-01-01', to: '9999-12-31' })).toEqual({
      from: new Date('0001-01-01T00:00:00Z'),
      to: new Date('9999-12-31T23:59:59.999Z'),
    });
    expect(refusal({ from: '2026-11-02', to: '2026-11-01T00:00:00Z' }).errors).toEqual([
      { field: 'to', message: 'before (or the same as) from' },
    ]);
  });
});

describe('the audit CSV', () => {
  it('starts with a byte-order mark, quotes what needs it and defuses formulas', () => {
    expect(auditCsvHead().startsWith('\uFEFFid,at,actor_id,')).toBe(true);
    const line = auditCsvLines([
      {
        id: 7,
        at: new Date('2026-11-26T08:00:00Z'),
        actorId: null,
        actorName: '=HYPERLINK("x")',
        keyId: null,
        address: '203.0.113.7',
        action: 'knowledge.upload',
        objectType: 'file',
        objectId: 'f1',
        objectLabel: '报告, 第二版.pdf',
        outcome: 'ok',
        detail: { size: 3 },
        hash: 'ab',
      },
    ]);
    expect(line).toBe(
      `7,2026-11-26T08:00:00.000Z,,"'=HYPERLINK(""x"")",,203.0.113.7,knowledge.upload,file,f1,"报告, 第二版.pdf",ok,"{""size"":3}",ab\r\n`,
    );
  });
});
