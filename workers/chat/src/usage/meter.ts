/** Tokens a model reports in OpenAI's `usage` (chat completions and embeddings alike). */
export interface ReportedUsage {
  prompt_tokens?: number | null;
  completion_tokens?: number | null;
}

/**
 * What one question spent, as the models reported it: the embeddings of the question
 * (knowledge's retrieval, chat's official-answer lookup) and the generations (the follow-up
 * rewrite, the answer). A call whose model reports no usage adds nothing: tokens are never
 * estimated.
 */
export class UsageMeter {
  embeddingTokens = 0;
  promptTokens = 0;
  completionTokens = 0;

  /** An embedding request's `usage.prompt_tokens`. */
  addEmbedding(tokens: number | null | undefined): void {
    if (isCount(tokens)) this.embeddingTokens += tokens;
  }

  /** A chat completion's `usage`. */
  addGeneration(usage: ReportedUsage | null | undefined): void {
    if (!usage) return;
    if (isCount(usage.prompt_tokens)) this.promptTokens += usage.prompt_tokens;
    if (isCount(usage.completion_tokens)) this.completionTokens += usage.completion_tokens;
  }

  get totalTokens(): number {
    return this.embeddingTokens + this.promptTokens + this.completionTokens;
  }
}

const isCount = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n) && n >= 0;
