import { z } from 'zod';
import { defineService, method } from '../service';
import { ModuleHealth } from './common';

/** The chat module: answers from the knowledge base, streamed over SSE. */
export const chatService = defineService({
  name: 'chat',
  prefix: '/modulechat',
  doc: 'Takes a prompt, retrieves context from knowledge, asks a language model, streams the answer.',
  methods: {
    GetHealth: method({
      doc: `Proves the path chat depends on: RPC to knowledge (and its database) and the model.
@role(guest)`,
      output: z.object({
        module: z.string(),
        knowledge: ModuleHealth,
        model: z.object({ ok: z.literal(true), latency_ms: z.number(), dimensions: z.number() }),
      }),
    }),
  },
});
