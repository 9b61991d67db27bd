import { fireEvent, screen, waitFor, within } from '@testing-library/preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setLocale } from '../i18n/locale';
import { refusal, renderInSession, testSession } from '../testing/session';
import { AuditPage, type AuditRecord } from './audit-page';

const record = (id: number, extra: Partial<AuditRecord> = {}): AuditRecord => ({
  id,
  at: '2026-11-26T08:09:10.000Z',
  actor_id: crypto.randomUUID(),
  actor_name: 'ada',
  key_id: null,
  address: '203.0.113.7',
  action: 'knowledge.upload',
  object_type: 'file',
  object_id: crypto.randomUUID(),
  object_label: '年度报告.pdf',
  outcome: 'ok',
  detail: {},
  ...extra,
});

/** A trail of these records, newest first, that hears the filters it is asked with. */
function service(records: AuditRecord[]) {
  const GetAudit = vi.fn(async (q: { page: number; size: number; action?: string }) => {
    const chosen = records.filter(
      (r) =>
        !q.action ||
        (q.action.endsWith('.') ? r.action.startsWith(q.action) : r.action === q.action),
    );
    return {
      items: chosen.slice((q.page - 1) * q.size, q.page * q.size),
      total: chosen.length,
      page: q.page,
      size: q.size,
    };
  });
  const GetAuditExport = vi.fn(async () => ({
    body: '\uFEFFid,at\r\n1,2026-11-26T08:09:10.000Z\r\n',
    filename: 'audit-2026-11-26.csv',
    contentType: 'text/csv',
  }));
  return { auth: { GetAudit, GetAuditExport } };
}

describe('the audit page', () => {
  beforeEach(() => setLocale('en'));
  afterEach(() => vi.restoreAllMocks());

  it('lists records with who, key, address, action, object and outcome', async () => {
    const keyId = crypto.randomUUID();
    renderInSession(
      <AuditPage />,
      testSession(
        service([
          record(3, { key_id: keyId }),
          record(2, {
            action: 'auth.login',
            actor_id: null,
            actor_name: 'mallory',
            outcome: 'denied',
            object_label: 'ada',
            detail: { reason: 'wrong_password' },
          }),
        ]),
      ),
    );
    expect(screen.getByRole('heading', { level: 1, name: 'Audit trail' })).toBeTruthy();
    const table = await screen.findByRole('table', { name: '2 records' });
    const [, upload, login] = within(table).getAllByRole('row');
    expect(within(upload!).getByText('File uploaded')).toBeTruthy();
    expect(within(upload!).getByText('年度报告.pdf')).toBeTruthy();
    expect(within(upload!).getByText(`API key ${keyId.slice(0, 8)}`)).toBeTruthy();
    expect(within(upload!).getByText('203.0.113.7')).toBeTruthy();
    expect(within(login!).getByText('Sign-in')).toBeTruthy();
    expect(within(login!).getByText('Refused (wrong password)')).toBeTruthy();
    expect(within(upload!).getByRole('rowheader').querySelector('time')?.dateTime).toBe(
      '2026-11-26T08:09:10.000Z',
    );
  });

  it('filters by a module from the grouped action list, back to page one', async () => {
    const api = service([record(2, { action: 'auth.key_create' }), record(1)]);
    renderInSession(<AuditPage />, testSession(api));
    await screen.findByRole('table', { name: '2 records' });
    const form = screen.getByRole('form', { name: 'Filters' });
    const action = within(form).getByLabelText('Action') as HTMLSelectElement;
    expect(within(action).getByRole('group', { name: 'Knowledge' })).toBeTruthy();
    fireEvent.change(action, { target: { value: 'knowledge.' } });
    fireEvent.input(within(form).getByLabelText('From'), { target: { value: '2026-11-01' } });
    fireEvent.submit(form);
    await screen.findByRole('table', { name: '1 record' });
    const asked = api.auth.GetAudit.mock.calls.at(-1)![0] as Record<string, unknown>;
    expect(asked).toMatchObject({ action: 'knowledge.', page: 1 });
    // The reader's day, from its first instant.
    expect(asked.from).toBe(new Date(2026, 10, 1).toISOString());
    fireEvent.click(within(form).getByRole('button', { name: 'Clear filters' }));
    await screen.findByRole('table', { name: '2 records' });
  });

  it('folds the filters on a narrow screen, the summary counting those applied', async () => {
    vi.spyOn(window, 'matchMedia').mockImplementation(
      (query: string) => ({ matches: query === '(max-width: 860px)' }) as MediaQueryList,
    );
    const api = service([record(2, { action: 'auth.key_create' }), record(1)]);
    renderInSession(<AuditPage />, testSession(api));
    await screen.findByRole('table', { name: '2 records' });
    const form = screen.getByRole('form', { name: 'Filters' });
    const box = form.closest('details')!;
    expect(box.open).toBe(false);
    expect(box.querySelector('summary')!.textContent).toBe('Filters');
    fireEvent.change(within(form).getByLabelText('Action'), { target: { value: 'knowledge.' } });
    fireEvent.input(within(form).getByLabelText('Who'), { target: { value: 'ada' } });
    fireEvent.submit(form);
    await screen.findByRole('table', { name: '1 record' });
    expect(box.querySelector('summary')!.textContent).toBe('Filters (2)');
    fireEvent.click(within(form).getByRole('button', { name: 'Clear filters' }));
    await screen.findByRole('table', { name: '2 records' });
    expect(box.querySelector('summary')!.textContent).toBe('Filters');
  });

  it('shows the filters open on a wide screen', async () => {
    renderInSession(<AuditPage />, testSession(service([record(1)])));
    await screen.findByRole('table', { name: '1 record' });
    expect(screen.getByRole('form', { name: 'Filters' }).closest('details')!.open).toBe(true);
  });

  it('exports the filtered trail as CSV and says so', async () => {
    const api = service([record(1)]);
    const created: Blob[] = [];
    URL.createObjectURL = vi.fn((blob: Blob) => {
      created.push(blob);
      return 'blob:audit';
    });
    URL.revokeObjectURL = vi.fn();
    const clicked: string[] = [];
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      clicked.push(this.download);
    });
    renderInSession(<AuditPage />, testSession(api));
    await screen.findByRole('table', { name: '1 record' });
    fireEvent.click(screen.getByRole('button', { name: 'Export CSV' }));
    await waitFor(() =>
      expect(screen.getByRole('status').textContent).toBe('The CSV file was saved.'),
    );
    expect(api.auth.GetAuditExport).toHaveBeenCalledWith({}, expect.anything());
    expect(clicked).toEqual(['audit-2026-11-26.csv']);
    expect(await created[0]!.text()).toContain('1,2026-11-26T08:09:10.000Z');
  });

  it('shows the page in Chinese', async () => {
    setLocale('zh');
    renderInSession(<AuditPage />, testSession(service([record(1)])));
    expect(screen.getByRole('heading', { level: 1, name: '操作留痕' })).toBeTruthy();
    const table = await screen.findByRole('table', { name: '共 1 条记录' });
    expect(within(table).getByText('上传文件')).toBeTruthy();
    expect(within(table).getByText('成功')).toBeTruthy();
  });

  it('says in Chinese what the trail stores in English or as a bare id', async () => {
    setLocale('zh');
    const message = '0f1e2d3c-4b5a-4987-8654-3210fedcba98';
    const question = '年休假有几天？';
    renderInSession(
      <AuditPage />,
      testSession(
        service([
          record(5, {
            action: 'chat.question',
            address: 'unknown',
            object_type: 'message',
            object_id: message,
            object_label: null,
            detail: { via: 'chat', question, status: 'complete' },
          }),
          record(4, {
            action: 'chat.question',
            object_type: 'question',
            object_id: message,
            object_label: null,
            detail: {},
          }),
          record(3, {
            action: 'chat.limits_update',
            object_type: 'limits',
            object_id: '1',
            object_label: 'usage_limits',
          }),
          record(2, {
            action: 'knowledge.reindex',
            object_type: 'collection',
            object_id: null,
            object_label: 'all collections',
          }),
          record(1, {
            action: 'auth.login',
            outcome: 'denied',
            object_label: 'ada',
            detail: { reason: 'wrong_password' },
          }),
        ]),
      ),
    );
    const table = await screen.findByRole('table', { name: '共 5 条记录' });
    const [, asked, unnamed, limits, reindex, login] = within(table).getAllByRole('row');
    const address = within(asked!).getByText('未知');
    expect(address.title).toMatch(/^未记录客户端地址/);
    expect(within(asked!).getByText(`“${question}”`).title).toBe(message);
    expect(within(unnamed!).getByText('问题 0f1e2d3c').title).toBe(message);
    expect(within(limits!).getByText('限额')).toBeTruthy();
    expect(within(reindex!).getByText('全部资料集')).toBeTruthy();
    expect(within(login!).getByText('被拒绝（密码错误）')).toBeTruthy();
    expect(table.textContent).not.toMatch(/unknown|usage_limits|all collections|wrong_password/);
  });

  it('names a passage by its file and where it stands, in the reader’s language', async () => {
    setLocale('zh');
    renderInSession(
      <AuditPage />,
      testSession(
        service([
          record(2, {
            action: 'knowledge.chunk_edit',
            object_type: 'chunk',
            object_id: '41',
            object_label: '年度报告.pdf',
            detail: { page: 3, section: null },
          }),
          record(1, {
            action: 'knowledge.chunk_switch',
            object_type: 'chunk',
            object_id: '42',
            object_label: '休假办法.docx',
            detail: { enabled: false, page: 2, section: '第二章 年休假' },
          }),
        ]),
      ),
    );
    const table = await screen.findByRole('table', { name: '共 2 条记录' });
    const [, corrected, switched] = within(table).getAllByRole('row');
    expect(within(corrected!).getByText('年度报告.pdf · 第 3 页').title).toBe('41');
    expect(within(switched!).getByText('休假办法.docx · 章节“第二章 年休假”')).toBeTruthy();
  });

  it('says "Access denied" to a user who is not a super admin', async () => {
    const session = testSession({
      auth: { GetAudit: () => Promise.reject(refusal(403, 'permission_denied')) },
    });
    renderInSession(<AuditPage />, session);
    expect(await screen.findByRole('heading', { level: 1, name: 'Access denied' })).toBeTruthy();
    expect(screen.getByText('Only super admins can see the audit trail.')).toBeTruthy();
    expect(screen.queryByRole('table')).toBeNull();
  });
});
