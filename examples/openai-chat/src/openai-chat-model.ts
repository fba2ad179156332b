import type OpenAI from 'openai';
import type { FunctionTool, Response, ResponseInputItem, ResponseOutputItem } from 'openai/resources/responses/responses';
import type { ChatModel } from '@toolhost-examples/chat-kit';

/** The OpenAI Responses API side of the chat: `input` items, function tools, `instructions`. */
export function createOpenAIChatModel(options: {
  client: OpenAI;
  model: string;
}): ChatModel<ResponseInputItem, FunctionTool, Response | readonly ResponseOutputItem[], ResponseInputItem.FunctionCallOutput[]> {
  const { client, model } = options;
  return {
    name: 'OpenAI',
    userMessage: (text) => ({ role: 'user', content: text }),
    async generate({ history, tools, instructions }) {
      const response = await client.responses.create({
        model,
        input: [...history],
        ...(tools.length ? { tools: [...tools] } : {}),
        ...(instructions ? { instructions } : {}),
      });
      // The function_call items (and any reasoning) must stay in the history next to their outputs.
      return { response, items: response.output as ResponseInputItem[], text: response.output_text };
    },
    toolResultItems: (toolResults) => toolResults,
  };
}
