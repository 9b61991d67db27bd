import { authService } from '#shared/contracts/auth';
import { chatService } from '#shared/contracts/chat';
import { knowledgeService } from '#shared/contracts/knowledge';
import { ZH_MODULE_DOCS, ZH_SUMMARIES } from '#shared/contracts/summaries-zh';
import { isLanguage, type Language } from '#shared/i18n/language';
import {
  mergeOpenApi,
  openApiDocument,
  renderApiReferencePage,
  type OpenApiDocument,
} from '#shared/service';

export const SERVICES = [authService, knowledgeService, chatService] as const;

const INFO: Record<Language, { title: string; description: string }> = {
  en: {
    title: 'kbchat: knowledge-base chat',
    description:
      'auth (/moduleauth), knowledge (/moduleknowledge) and chat (/modulechat) on one domain.',
  },
  zh: {
    title: 'kbchat：知识库问答',
    description:
      '同一域名下的三个模块：auth（/moduleauth，用户与登录）、knowledge（/moduleknowledge，文件与资料集）和 chat（/modulechat，问答）。',
  },
};

/** The language a `?lang=` asks for: Chinese for `zh`, English for anything else. */
export const referenceLanguage = (lang: string | undefined): Language =>
  isLanguage(lang) ? lang : 'en';

const merged = new Map<Language, OpenApiDocument>();

/**
 * The interface description of all three modules, also served at the root as the spec's
 * application does (each module serves its own at `/<prefix>/openapi.json`), grouped by module
 * and summed up route by route in English or Chinese.
 */
export function rootOpenApi(language: Language = 'en'): OpenApiDocument {
  let document = merged.get(language);
  if (!document) {
    const documents = SERVICES.map((service) =>
      language === 'en'
        ? openApiDocument(service)
        : openApiDocument(service, {
            language,
            summaries: ZH_SUMMARIES[service.name] ?? {},
            moduleDoc: ZH_MODULE_DOCS[service.name],
          }),
    );
    document = mergeOpenApi(documents, { ...INFO[language], version: '1.0.0' });
    merged.set(language, document);
  }
  return document;
}

/** The API reference page of all three modules, in the language asked for (`/docs?lang=zh`). */
export function rootApiReference(language: Language): string {
  return renderApiReferencePage({
    title: INFO[language].title,
    openApiUrl: language === 'en' ? '/openapi.json' : `/openapi.json?lang=${language}`,
    language,
  });
}
