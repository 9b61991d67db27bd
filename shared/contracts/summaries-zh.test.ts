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
});
