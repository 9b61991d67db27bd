import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { CfWorkerJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/cfworker';
import { tokenOf } from '#shared/auth/authorize';
import { ChatCompletionRequest } from '#shared/contracts/openai';
import { AppError } from '#shared/errors/app-error';
import { knowledgeService } from '#shared/contracts/knowledge';
import { rpcClient } from '#shared/service';
import { languageOf } from '../answer/language';
import type { ChatCall } from '../call';
import { createChatCompletion } from '../handlers/openai';
import { UsageMeter } from '../usage/meter';
import { recordSearch, startQuotaCheck } from '../usage/record';
import { answerResult, errorResult, filesResult, pageResult, passagesResult } from './results';
import { ASK, FILES_PAGE_SIZE, LIST_FILES, READ_PAGE, SEARCH } from './tools';

export const MCP_SERVER_NAME = 'kbchat';
const VERSION = '1.0.0';

const INSTRUCTIONS =
  'A knowledge base of documents (often Chinese government documents). Use search to find ' +
  'passages, ask for a cited answer, list_files to see what is there, read_page to read a page ' +
  'whole. / 文档知识库：search 检索片段，ask 获得带引用的回答，list_files 查看有哪些文件，' +
  'read_page 阅读整页。';

/**
 * The MCP server of one call: its tools run as the caller, with the caller's API key passed on
 * to knowledge (which applies its access rules to it) and the OpenAI-compatible door's answer
 * path for `ask`. One per request: the server keeps no session (Workers share no memory
 * between requests anyway).
 */
export async function mcpServer(ctx: ChatCall): Promise<McpServer> {
  const token = ctx.http ? await tokenOf({ caller: { transport: 'http', context: ctx.http } }) : '';
  const meta = { identity: { token }, requestId: ctx.requestId };
  const knowledge = rpcClient(knowledgeService, ctx.env.KNOWLEDGE, meta);
  const server = new McpServer(
    { name: MCP_SERVER_NAME, version: VERSION },
    {
      instructions: INSTRUCTIONS,
      // Ajv (the SDK's default) compiles schemas with `new Function`, which Workers forbid.
      jsonSchemaValidator: new CfWorkerJsonSchemaValidator(),
    },
  );
  // A tool's failure is the caller's to read only when it is a refusal of the catalogue.
  const run = async (tool: string, work: () => Promise<CallToolResult>) => {
    try {
      return await work();
    } catch (err) {
      ctx.log.warn('mcp tool failed', { tool, error: String(err) });
      return errorResult(err);
    }
  };

  // A search costs model tokens (knowledge embeds the question): the daily token limit applies,
  // checked as every door checks it, and its tokens are the user's usage (no question).
  server.registerTool('search', SEARCH, ({ question, collection, filters, top }) =>
    run('search', async () => {
      const meter = new UsageMeter();
      const quota = startQuotaCheck(ctx, languageOf(question), 'search');
      const metered = rpcClient(knowledgeService, ctx.env.KNOWLEDGE, meta, (usage) =>
        meter.addEmbedding(usage.embedding_tokens),
      );
      const passages = await metered.GetQuery({
        text: question,
        top,
        ...(collection ? { collection_id: collection } : {}),
        ...filters,
      });
      await quota;
      ctx.waitUntil(
        recordSearch(ctx, { collectionIds: collection ? [collection] : null, passages, meter }),
      );
      return passagesResult(passages);
    }),
  );

  server.registerTool('ask', ASK, ({ question, collection, files }) =>
    run('ask', async () => {
      if (collection && files) {
        const detail = 'Give either collection or files, not both.';
        return errorResult(new AppError('validation_failed', { detail }));
      }
      const model = files
        ? `kbchat-files:${files.join(',')}`
        : collection
          ? `kbchat-collections:${collection}`
          : 'kbchat';
      const body = ChatCompletionRequest.parse({
        model,
        messages: [{ role: 'user', content: question }],
      });
      const completion = await createChatCompletion({ body: { ...body, stream: false } }, ctx);
      if (Symbol.asyncIterator in completion) throw new Error('asked for no stream, got one');
      return answerResult(completion);
    }),
  );

  server.registerTool('list_files', LIST_FILES, ({ collection, filters, page }) =>
    run('list_files', async () =>
      filesResult(
        await knowledge.GetList({
          ...(collection ? { collection_id: collection } : {}),
          ...filters,
        }),
        page,
        FILES_PAGE_SIZE,
      ),
    ),
  );

  server.registerTool('read_page', READ_PAGE, ({ file, page }) =>
    run('read_page', async () => pageResult(await knowledge.GetPage({ file_id: file, page }))),
  );

  return server;
}
