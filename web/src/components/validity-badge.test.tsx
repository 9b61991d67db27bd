import { render, screen } from '@testing-library/preact';
import { beforeEach, describe, expect, it } from 'vitest';
import type { KnowledgeFile } from '../api/services';
import { setLocale } from '../i18n/locale';
import { ValidityBadge } from './validity-badge';

type Validity = NonNullable<KnowledgeFile['validity']>;

const amendedBy = (title: string): Validity =>
  ({
    status: 'amended',
    relations: [
      {
        id: 1,
        relation: 'amended_by',
        file_id: null,
        file_name: 'xiugai.html',
        doc_number: null,
        title,
        origin: 'extracted',
      },
    ],
  }) as Validity;

describe('the document a badge names', () => {
  beforeEach(() => setLocale('zh'));

  it('names it by its title between 书名号, once', () => {
    render(<ValidityBadge validity={amendedBy('《会议费管理办法》')} />);
    expect(screen.getByText('已被 《会议费管理办法》 修改')).toBeTruthy();
  });

  it('writes a title within its title with single marks', () => {
    render(<ValidityBadge validity={amendedBy('关于修改《会议费管理办法》的决定')} />);
    expect(screen.getByText('已被 《关于修改〈会议费管理办法〉的决定》 修改')).toBeTruthy();
  });
});
