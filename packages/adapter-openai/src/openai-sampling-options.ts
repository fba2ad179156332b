import type OpenAI from 'openai';
import type { ContentPart, SamplingRequest } from '@toolhost/contract';

/** How an OpenAI adapter answers MCP `sampling/createMessage` requests. */
export interface OpenAISamplingOptions {
  /** Your `OpenAI` client; the adapter never creates one and never reads API keys. */
  client: Pick<OpenAI, 'chat' | 'responses'>;
  /** The model that answers sampling requests (e.g. `gpt-5-mini`). */
  model: string;
  /**
   * Pick the model from the server's `modelPreferences`; return `undefined` to use `model`.
   * @default uses `model` always
   */
  selectModel?: (preferences: SamplingRequest['modelPreferences']) => string | undefined;
}

/** The parts of a sampling message as an array. */
export function samplingParts(content: ContentPart | readonly ContentPart[]): readonly ContentPart[] {
  return Array.isArray(content) ? content : [content as ContentPart];
}
