import { WorkerEntrypoint } from 'cloudflare:workers';
import { checkDatabase, type DatabaseHealth } from '../../../shared/db/health';
import { moduleName } from '../../../shared/module/module-app';
import { knowledgeConfig } from './config';
import { KNOWLEDGE_MODULE } from './module';

export interface KnowledgeHealth {
  module: string;
  database: DatabaseHealth;
}

/** What other workers may call on knowledge through a service binding (JS RPC). */
export class KnowledgeRpc extends WorkerEntrypoint<KnowledgeEnv> {
  async health(): Promise<KnowledgeHealth> {
    const config = knowledgeConfig(this.env);
    return {
      module: moduleName(this.env, KNOWLEDGE_MODULE),
      database: await checkDatabase(config.database, (p) => this.ctx.waitUntil(p)),
    };
  }
}
