import { describe, expect, it } from 'vitest';
import { validityNote } from './validity-note';

const relation = (
  relation: 'repealed_by' | 'replaced_by' | 'amended_by' | 'implemented_by',
  other: { doc_number?: string; title?: string; file_name?: string },
) => ({
  id: 1,
  relation,
  file_id: '7f1c7a59-3a57-4a54-9a57-59ab9f0b9b57',
  file_name: other.file_name ?? null,
  doc_number: other.doc_number ?? null,
  title: other.title ?? null,
  origin: 'extracted' as const,
});

const source = (
  file: string,
  citation: number | null,
  validity?: {
    status: 'in_force' | 'amended' | 'repealed' | 'expired';
    relations: ReturnType<typeof relation>[];
  },
) => ({ file_id: `id-${file}`, file_name: file, citation, ...(validity ? { validity } : {}) });

describe('the note on cited documents no longer in force', () => {
  it('says nothing when every cited source holds or has no validity', () => {
    expect(
      validityNote(
        [
          source('a.pdf', 1, { status: 'in_force', relations: [relation('implemented_by', {})] }),
          source('b.pdf', 2),
          // Not cited: the answer did not rely on it.
          source('c.pdf', null, { status: 'repealed', relations: [] }),
        ],
        'zh',
      ),
    ).toBeUndefined();
  });

  it('names the repealing document by its 文号, in Chinese', () => {
    const note = validityNote(
      [
        source('新办法.pdf', 1, { status: 'in_force', relations: [] }),
        source('关于就业补贴的通知.pdf', 2, {
          status: 'repealed',
          relations: [relation('repealed_by', { doc_number: '川办规〔2025〕6号' })],
        }),
      ],
      'zh',
    );
    expect(note).toBe('\n\n> 注意：[2] 《关于就业补贴的通知》已被川办规〔2025〕6号文件废止。');
  });

  it('names the cited document by its own 文号, else its title, never by its file when it says', () => {
    const repealed = {
      status: 'repealed' as const,
      relations: [relation('repealed_by', { doc_number: '川办规〔2025〕6号' })],
    };
    const numbered = { ...source('huiyi-2023.md', 1, repealed), doc_number: '川办规〔2023〕4号' };
    expect(validityNote([numbered], 'zh')).toBe(
      '\n\n> 注意：[1] 川办规〔2023〕4号文件已被川办规〔2025〕6号文件废止。',
    );
    expect(validityNote([numbered], 'en')).toBe(
      '\n\n> Note: [1] 川办规〔2023〕4号 was repealed by 川办规〔2025〕6号.',
    );
    const titled = { ...source('huiyi-2023.md', 1, repealed), title: '《会议费管理办法》' };
    expect(validityNote([titled], 'zh')).toBe(
      '\n\n> 注意：[1] 《会议费管理办法》已被川办规〔2025〕6号文件废止。',
    );
  });

  it('tells amended, replaced and expired documents, one sentence each, chunks of a file together', () => {
    const amended = {
      status: 'amended' as const,
      relations: [relation('amended_by', { title: '关于修改补贴标准的通知' })],
    };
    const note = validityNote(
      [
        source('补贴办法.pdf', 1, amended),
        source('旧规定.docx', 2, {
          status: 'repealed',
          relations: [relation('replaced_by', { file_name: '新规定.docx' })],
        }),
        source('补贴办法.pdf', 3, amended),
        source('试行方案.pdf', 4, { status: 'expired', relations: [] }),
      ],
      'zh',
    );
    expect(note).toBe(
      '\n\n> 注意：[1][3] 《补贴办法》已被《关于修改补贴标准的通知》修改，请以修改后的规定为准。' +
        '[2] 《旧规定》已被《新规定》替代。[4] 《试行方案》已超过有效期。',
    );
  });

  it('speaks English to an English question', () => {
    const note = validityNote(
      [
        source('Housing Policy 2019.pdf', 1, {
          status: 'repealed',
          relations: [
            relation('replaced_by', { title: 'Housing Policy 2024' }),
            relation('repealed_by', { doc_number: 'HP-2025-01' }),
          ],
        }),
        source('Grants.pdf', 2, { status: 'amended', relations: [] }),
      ],
      'en',
    );
    expect(note).toBe(
      '\n\n> Note: [1] “Housing Policy 2019” was repealed by HP-2025-01, was replaced by ' +
        '“Housing Policy 2024”. [2] “Grants” was amended; check the amended provisions.',
    );
  });
});
