import type { Content, FunctionDeclaration, GenerateContentResponse, GoogleGenAI } from '@google/genai';
import type { ChatModel } from '@toolhost-examples/chat-kit';

/** The Gemini side of the chat: `contents` history, function declarations, `systemInstruction`. */
export function createGeminiChatModel(options: {
  ai: GoogleGenAI;
  model: string;
}): ChatModel<Content, FunctionDeclaration, GenerateContentResponse | Content, Content> {
  const { ai, model } = options;
  return {
    name: 'Gemini',
    userMessage: (text) => ({ role: 'user', parts: [{ text }] }),
    async generate({ history, tools, instructions }) {
      const response = await ai.models.generateContent({
        model,
        contents: [...history],
        config: {
          ...(tools.length ? { tools: [{ functionDeclarations: [...tools] }] } : {}),
          ...(instructions ? { systemInstruction: instructions } : {}),
        },
      });
      const modelTurn = response.candidates?.[0]?.content;
      // Read the text parts directly: `response.text` warns when the turn also has function calls.
      const text = (modelTurn?.parts ?? []).flatMap((part) => (part.text && !part.thought ? [part.text] : [])).join('');
      return { response, items: modelTurn ? [modelTurn] : [], text };
    },
    toolResultItems: (toolResults) => [toolResults],
  };
}
