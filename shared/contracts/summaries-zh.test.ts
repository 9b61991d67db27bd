import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../service/openapi';
import { authService } from './auth';
import { chatService } from './chat';
import { knowledgeService } from './knowledge';
import { ZH_MODULE_DOCS, ZH_SUMMARIES } from './summaries-zh';

const SERVICES = [authService, knowledgeService, chatService];

describe('the API reference in Chinese', () => {
  it.each(SERVICES.map((service) => [service.name, service] as const))(
    '%s: every route has a Chinese summary, and every summary a route',
    (name, service) => {
      const summaries = ZH_SUMMARIES[name] ?? {};
      const routes = service.routes.map((route) => route.name).sort();
      expect(Object.keys(summaries).sort()).toEqual(routes);
      for (const [method, summary] of Object.entries(summaries)) {
        expect(summary, method).toMatch(/\p{Script=Han}/u);
        expect(summary, method).not.toMatch(/[。.]$/);
      }
      expect(ZH_MODULE_DOCS[name]).toMatch(/\p{Script=Han}/u);
    },
  );

  it('the modules’ documents carry them, in both languages, grouped by module', () => {
    for (const service of SERVICES) {
      const english = openApiDocument(service);
      const chinese = openApiDocument(service, {
        language: 'zh',
        summaries: ZH_SUMMARIES[service.name] ?? {},
        moduleDoc: ZH_MODULE_DOCS[service.name],
      });
      for (const [path, item] of Object.entries(chinese.paths)) {
        for (const [verb, op] of Object.entries(item)) {
          const en = english.paths[path]![verb]!;
          expect(op.tags, `${verb} ${path}`).toEqual([service.name]);
          expect(op.summary, `${verb} ${path}`).not.toBe(en.summary);
          expect(String(en.summary), `${verb} ${path}`).toMatch(/^[A-Z`]/);
        }
      }
    }
  });

  // The web app's words: a chunk is a 片段 (分块 is only the act, in ingestion), a collection a
  // 资料集, the audit trail 操作留痕; 知识库 is the whole of what the service holds.
  it('uses the web app’s words for chunks, collections and the audit trail', () => {
    const summaries = Object.values(ZH_SUMMARIES).flatMap((routes) => Object.values(routes));
    for (const text of [...summaries, ...Object.values(ZH_MODULE_DOCS)]) {
      expect(text).not.toMatch(/段落|文本块|审计日志|你/);
    }
    for (const summary of summaries) expect(summary).not.toMatch(/分块/);
    expect(ZH_SUMMARIES.knowledge?.GetQuery).toBe('与 text 最匹配的片段');
    expect(ZH_SUMMARIES.knowledge?.PostCollection).toBe('创建资料集');
    expect(ZH_SUMMARIES.auth?.GetAudit).toMatch(/^操作留痕，/);
  });
});
