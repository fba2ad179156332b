// Terminal chat with an OpenAI model (Responses API) and every MCP tool from your toolhost settings.
import OpenAI from 'openai';
import { runChatExample } from '@toolhost-examples/chat-kit';
import { createOpenAIResponsesAdapter } from '@toolhost/adapter-openai';
import { createOpenAIChatModel } from './openai-chat-model.js';

runChatExample({
  name: 'openai-chat',
  apiKeyVariable: 'OPENAI_API_KEY',
  apiKeyHelp: 'Create a key at https://platform.openai.com/api-keys',
  modelVariable: 'OPENAI_MODEL',
  defaultModel: 'gpt-5-mini',
  adapter: createOpenAIResponsesAdapter(),
  // OPENAI_BASE_URL, OPENAI_ORG_ID and OPENAI_PROJECT_ID are read by the client itself.
  createModel: ({ apiKey, model }) => createOpenAIChatModel({ client: new OpenAI({ apiKey }), model }),
}).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
