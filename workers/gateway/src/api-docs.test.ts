import { describe, expect, it } from 'vitest';
import gateway from './index';

const get = (path: string) =>
  gateway.fetch(new Request(`http://kb.example${path}`), {} as unknown as GatewayEnv);

interface Document {
  info: { title: string };
  tags: { name: string }[];
  paths: Record<string, Record<string, { tags: string[]; summary: string }>>;
}

describe('the API reference of all three modules', () => {
  it('groups the routes by module, each with a summary and its roles', async () => {
    const document = await (await get('/openapi.json')).json<Document>();
    expect(document.tags.map((tag) => tag.name)).toEqual(['auth', 'knowledge', 'chat']);
    const login = document.paths['/moduleauth/login']!.post!;
    expect(login.tags).toEqual(['auth']);
    expect(login.summary).toBe('Logs in [guest]');
    expect(document.paths['/moduleauth/users']!.get!.summary).toBe(
      'Every user, oldest first, a page at a time [SUPER_ADMIN]',
    );
    expect(document.paths['/modulechat/chat']!.post!.tags).toEqual(['chat']);
  });

  it('?lang=zh: Chinese summaries and title; the page says zh-CN and asks for that document', async () => {
    const document = await (await get('/openapi.json?lang=zh')).json<Document>();
    expect(document.info.title).toBe('kbchat：知识库问答');
    expect(document.paths['/moduleauth/users']!.get!.summary).toBe(
      '所有用户，按创建时间从早到晚，分页 [SUPER_ADMIN]',
    );
    const page = await (await get('/docs?lang=zh')).text();
    expect(page).toContain('<html lang="zh-CN">');
    expect(page).toContain('<title>kbchat：知识库问答 API 参考</title>');
    expect(page).toContain('data-openapi="/openapi.json?lang=zh"');
  });

  it('any other language is English', async () => {
    const page = await (await get('/docs?lang=%3Cscript%3E')).text();
    expect(page).toContain('<html lang="en">');
    expect(page).toContain('data-openapi="/openapi.json"');
    expect(page).not.toContain('<script>');
    const document = await (await get('/openapi.json?lang=fr')).json<Document>();
    expect(document.info.title).toBe('kbchat: knowledge-base chat');
  });
});
