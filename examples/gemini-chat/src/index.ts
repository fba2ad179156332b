// Terminal chat with a Gemini model and every MCP tool from your toolhost settings.
import { GoogleGenAI } from '@google/genai';
import { runChatExample } from '@toolhost-examples/chat-kit';
import { createGeminiAdapter } from '@toolhost/adapter-gemini';
import { createGeminiChatModel } from './gemini-chat-model.js';

runChatExample({
  name: 'gemini-chat',
  apiKeyVariable: 'GEMINI_API_KEY',
  apiKeyHelp: 'Get a key at https://aistudio.google.com/apikey',
  modelVariable: 'GEMINI_MODEL',
  defaultModel: 'gemini-2.5-flash',
  adapter: createGeminiAdapter(),
  createModel: ({ apiKey, model }) => createGeminiChatModel({ ai: new GoogleGenAI({ apiKey }), model }),
}).catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
