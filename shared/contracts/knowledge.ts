import { defineService, method } from '../service';
import { ModuleHealth } from './common';

/** The knowledge module: PDFs into pgvector, similarity queries. */
export const knowledgeService = defineService({
  name: 'knowledge',
  prefix: '/moduleknowledge',
  doc: 'Uploaded PDFs are parsed, chunked, embedded and stored in Postgres with pgvector.',
  annotatedOnly: true,
  methods: {
    GetHealth: method({
      doc: 'Liveness and a database round trip; chat calls it over RPC. @role(guest) @grpc',
      output: ModuleHealth,
    }),
  },
});
