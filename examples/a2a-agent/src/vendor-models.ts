// One AgentModel per vendor: how a user message, a request and tool results look in its API.
import type Anthropic from '@anthropic-ai/sdk';
import type { ContentBlock, Message, MessageParam, Tool } from '@anthropic-ai/sdk/resources/messages';
import type { Content, FunctionDeclaration, GenerateContentResponse, GoogleGenAI } from '@google/genai';
import type OpenAI from 'openai';
import type { FunctionTool, Response, ResponseInputItem, ResponseOutputItem } from 'openai/resources/responses/responses';
import type { AgentModel, AgentThought } from '@toolhost/a2a';

/** A Gemini thought (`**Subject** text`) as the extension's AgentThought. */
function toThought(text: string): AgentThought {
  const match = /^\s*\*\*(.+?)\*\*\s*([\s\S]*)$/.exec(text);
  return match ? { subject: match[1]!.trim(), description: match[2]!.trim() } : { subject: 'Thinking', description: text.trim() };
}

/** Gemini (`@google/genai`): `contents` history, function declarations, thoughts from thought parts. */
export function createGeminiAgentModel(options: {
  readonly ai: GoogleGenAI;
  readonly model: string;
}): AgentModel<Content, FunctionDeclaration, GenerateContentResponse | Content, Content> {
  const { ai, model } = options;
  return {
    name: 'Gemini',
    model,
    userMessage: (text) => ({ role: 'user', parts: [{ text }] }),
    async generate({ history, tools, instructions, signal }) {
      const response = await ai.models.generateContent({
        model,
        contents: [...history],
        config: {
          abortSignal: signal,
          ...(tools.length ? { tools: [{ functionDeclarations: [...tools] }] } : {}),
          ...(instructions ? { systemInstruction: instructions } : {}),
        },
      });
      const turn = response.candidates?.[0]?.content;
      const parts = turn?.parts ?? [];
      const text = parts.flatMap((part) => (part.text && !part.thought ? [part.text] : [])).join('');
      const thoughts = parts.flatMap((part) => (part.text && part.thought ? [toThought(part.text)] : []));
      return { response, items: turn ? [turn] : [], text, thoughts };
    },
    toolResultItems: (toolResults) => [toolResults],
  };
}

/** OpenAI Responses API: `input` items, function tools, `instructions`. */
export function createOpenAIAgentModel(options: {
  readonly client: OpenAI;
  readonly model: string;
}): AgentModel<ResponseInputItem, FunctionTool, Response | readonly ResponseOutputItem[], ResponseInputItem.FunctionCallOutput[]> {
  const { client, model } = options;
  return {
    name: 'OpenAI',
    model,
    userMessage: (text) => ({ role: 'user', content: text }),
    async generate({ history, tools, instructions, signal }) {
      const response = await client.responses.create(
        { model, input: [...history], ...(tools.length ? { tools: [...tools] } : {}), ...(instructions ? { instructions } : {}) },
        { signal },
      );
      // The function_call items (and any reasoning) stay in the history next to their outputs.
      return { response, items: response.output as ResponseInputItem[], text: response.output_text };
    },
    toolResultItems: (toolResults) => toolResults,
  };
}

/** Anthropic Messages API: `messages`, tools, `system`; `tool_use` blocks answered by a `tool_result` user message. */
export function createAnthropicAgentModel(options: {
  readonly client: Anthropic;
  readonly model: string;
  readonly maxTokens?: number;
}): AgentModel<MessageParam, Tool, Message | readonly ContentBlock[], MessageParam> {
  const { client, model } = options;
  return {
    name: 'Anthropic',
    model,
    userMessage: (text) => ({ role: 'user', content: text }),
    async generate({ history, tools, instructions, signal }) {
      const response = await client.messages.create(
        {
          model,
          max_tokens: options.maxTokens ?? 4096,
          messages: [...history],
          ...(tools.length ? { tools: [...tools] } : {}),
          ...(instructions ? { system: instructions } : {}),
        },
        { signal },
      );
      const text = response.content.flatMap((block) => (block.type === 'text' ? [block.text] : [])).join('');
      const thoughts = response.content.flatMap((block) =>
        block.type === 'thinking' ? [{ subject: 'Thinking', description: block.thinking }] : [],
      );
      return { response, items: [{ role: 'assistant', content: response.content }], text, thoughts };
    },
    toolResultItems: (toolResults) => [toolResults],
  };
}
