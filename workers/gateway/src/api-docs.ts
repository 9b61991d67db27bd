import { authService } from '#shared/contracts/auth';
import { chatService } from '#shared/contracts/chat';
import { knowledgeService } from '#shared/contracts/knowledge';
import { mergeOpenApi, openApiDocument, type OpenApiDocument } from '#shared/service';

export const SERVICES = [authService, knowledgeService, chatService] as const;

let merged: OpenApiDocument | undefined;

/**
 * The interface description of all three modules, also served at the root as the spec's
 * application does; each module serves its own at `/<prefix>/openapi.json`.
 */
export function rootOpenApi(): OpenApiDocument {
  merged ??= mergeOpenApi(SERVICES.map(openApiDocument), {
    title: 'kbchat: knowledge-base chat',
    version: '1.0.0',
    description:
      'auth (/moduleauth), knowledge (/moduleknowledge) and chat (/modulechat) on one domain.',
  });
  return merged;
}
